#pragma once
// Whole-file reads and crash-safe writes: a reader sees the old file or the new one, never a
// torn mix, because the bytes go to a temporary file in the same directory that is fsynced and
// renamed over the target, and the directory is fsynced to make the rename durable.
#include <string>

namespace falcon {

// The bytes of `path`; throws falcon::Error naming the path when it cannot be read.
std::string read_file(const std::string& path);

// Atomically replaces `path` with `bytes`. Throws falcon::Error naming the path on failure
// (the temporary file is removed).
void write_file_atomic(const std::string& path, const std::string& bytes);

// fsync of a directory, so renames and creations inside it survive a crash. Throws on failure.
void fsync_directory(const std::string& dir);

// fsync of every regular file below `dir` and of every directory there (before a rename that
// publishes the directory).
void fsync_tree(const std::string& dir);

}  // namespace falcon
