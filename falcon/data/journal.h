#pragma once
// The label journal of a dataset being made: OUTPUT.journal, one JSON line per labelled instance,
// written and fsync'd as labels arrive. Labels live here until they are consolidated into the
// HDF5 file, so a run killed at any moment loses nothing that reached the journal, and the
// restart skips every index found in the file or the journal.
//
// The first line records the config the labels belong to; opening a journal of another config is
// an error naming the first key that differs. A last line that was cut off by the kill is dropped
// (and cut from the file); any other unreadable line is an error naming FILE:LINE.
#include <memory>
#include <string>
#include <vector>

#include "falcon/data/schema.h"

namespace falcon::data {

struct JournalEntry {
  std::string split;
  std::int64_t index = 0;
  Label label;
};

class Journal {
 public:
  // Opens or creates `path` and takes an exclusive lock on it: a second process making the same
  // dataset is an error rather than a race. `identity_yaml` is the config identity (see
  // DatagenSpec::identity_yaml).
  static std::unique_ptr<Journal> open(const std::string& path, const std::string& identity_yaml);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  const std::vector<JournalEntry>& entries() const { return entries_; }  // as read by open()
  // Appends one line per entry, then fsync: on return the entries survive a crash.
  void append(const std::vector<JournalEntry>& entries);
  // Back to the header line only (after the entries were consolidated into the dataset file).
  void clear();
  // Deletes the journal file (the dataset is complete); the object must not be used afterwards.
  void remove();
  const std::string& path() const { return path_; }

 private:
  Journal(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  void write_all(const std::string& text);

  std::string path_;
  int fd_ = -1;
  long header_bytes_ = 0;
  std::vector<JournalEntry> entries_;
};

}  // namespace falcon::data
