#include "falcon/data/journal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "falcon/core/config.h"
#include "falcon/core/error.h"

namespace falcon::data {
namespace {

using nlohmann::json;
constexpr int kJournalVersion = 1;

std::string entry_line(const JournalEntry& e) {
  json j;
  j["split"] = e.split;
  j["index"] = e.index;
  j["solution"] = e.label.solution.lists;
  j["objective"] = e.label.objective;
  j["solver"] = e.label.solver;
  j["solver_seed"] = e.label.solver_seed;
  j["seconds"] = e.label.seconds;
  return j.dump() + "\n";
}

JournalEntry parse_entry(const json& j) {
  JournalEntry e;
  e.split = j.at("split").get<std::string>();
  e.index = j.at("index").get<std::int64_t>();
  e.label.solution.lists = j.at("solution").get<std::vector<std::vector<int>>>();
  e.label.objective = j.at("objective").get<double>();
  e.label.solver = j.at("solver").get<std::string>();
  e.label.solver_seed = j.at("solver_seed").get<std::uint64_t>();
  e.label.seconds = j.at("seconds").get<double>();
  return e;
}

std::string read_fd(int fd, const std::string& path) {
  std::string text;
  char buf[1 << 16];
  if (::lseek(fd, 0, SEEK_SET) < 0) throw Error(path + ": cannot read the journal");
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0) throw Error(path + ": cannot read the journal: " + std::strerror(errno));
    if (got == 0) break;
    text.append(buf, static_cast<std::size_t>(got));
  }
  return text;
}

}  // namespace

std::unique_ptr<Journal> Journal::open(const std::string& path, const std::string& identity_yaml) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(path + ": cannot open the journal: " + std::strerror(errno));
  std::unique_ptr<Journal> journal(new Journal(path, fd));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    throw Error(path + ": locked by another process: is another falcon_datagen making the same dataset?");
  }
  const std::string text = read_fd(fd, path);
  // Lines that end in '\n'; a last line without one was cut off by a kill.
  std::vector<std::pair<std::size_t, std::size_t>> lines;  // [begin, end) without the '\n'
  std::size_t begin = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      lines.emplace_back(begin, i);
      begin = i + 1;
    }
  }
  std::size_t keep = begin;  // bytes to keep: whole lines only
  std::vector<json> parsed;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    try {
      parsed.push_back(json::parse(text.begin() + lines[l].first, text.begin() + lines[l].second));
    } catch (const json::exception&) {
      if (l + 1 == lines.size()) {  // a torn last line (blocks not yet written when the machine died)
        keep = lines[l].first;
        break;
      }
      throw Error(path + ":" + std::to_string(l + 1) + ": unreadable journal line (delete the journal to relabel its instances)");
    }
  }
  if (keep < text.size() && ::ftruncate(fd, static_cast<off_t>(keep)) != 0) {
    throw Error(path + ": cannot cut the torn last line: " + std::strerror(errno));
  }
  if (parsed.empty()) {
    json header;
    header["falcon_journal"] = kJournalVersion;
    header["config"] = identity_yaml;
    const std::string line = header.dump() + "\n";
    if (::ftruncate(fd, 0) != 0) throw Error(path + ": cannot reset the journal: " + std::strerror(errno));
    journal->write_all(line);
    journal->header_bytes_ = static_cast<long>(line.size());
    return journal;
  }
  const json& header = parsed.front();
  if (!header.contains("falcon_journal") || !header.contains("config") || !header["config"].is_string()) {
    throw Error(path + ":1: not a falcon_datagen journal header (delete the file to start over)");
  }
  if (header["falcon_journal"] != kJournalVersion) {
    throw Error(path + ":1: journal version " + header["falcon_journal"].dump() + ", this build writes " + std::to_string(kJournalVersion) +
                " (finish the run with the build that started it, or delete the journal)");
  }
  const std::string diff = Config::first_difference(header["config"].get<std::string>(), identity_yaml);
  if (!diff.empty()) {
    throw Error(path + ": holds labels of another config ('" + diff +
                "' differs): restore that config, choose another output, or delete the journal to relabel");
  }
  journal->header_bytes_ = static_cast<long>(lines.front().second + 1);
  for (std::size_t l = 1; l < parsed.size(); ++l) {
    try {
      journal->entries_.push_back(parse_entry(parsed[l]));
    } catch (const json::exception& e) {
      throw Error(path + ":" + std::to_string(l + 1) + ": journal line lacks a field (" + e.what() + ")");
    }
  }
  return journal;
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

void Journal::write_all(const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(path_ + ": cannot append to the journal: " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd_) != 0) throw Error(path_ + ": fsync of the journal failed: " + std::strerror(errno));
}

void Journal::append(const std::vector<JournalEntry>& entries) {
  std::string text;
  for (const auto& e : entries) text += entry_line(e);
  if (!text.empty()) write_all(text);
}

void Journal::clear() {
  if (::ftruncate(fd_, header_bytes_) != 0 || ::fsync(fd_) != 0) {
    throw Error(path_ + ": cannot clear the journal: " + std::strerror(errno));
  }
  entries_.clear();
}

void Journal::remove() {
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT) throw Error(path_ + ": cannot delete the journal: " + std::strerror(errno));
  ::close(fd_);
  fd_ = -1;
}

}  // namespace falcon::data
