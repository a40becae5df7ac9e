#include "shell/history.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace lbt {

namespace {

std::string Escape(const std::string& statement) {
  std::string line;
  for (char c : statement) {
    if (c == '\\') {
      line += "\\\\";
    } else if (c == '\n') {
      line += "\\n";
    } else {
      line += c;
    }
  }
  return line;
}

std::string Unescape(const std::string& line) {
  std::string statement;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      ++i;
      statement += line[i] == 'n' ? '\n' : line[i];
    } else {
      statement += line[i];
    }
  }
  return statement;
}

// The first line of a file in the line editor's format, whose lines
// escape spaces and other bytes as \ooo in octal.
constexpr char kEditorCookie[] = "_HiStOrY_V2_";

std::string UnescapeOctal(const std::string& line) {
  std::string statement;
  for (size_t i = 0; i < line.size(); ++i) {
    const bool octal = line[i] == '\\' && i + 3 < line.size() && line[i + 1] >= '0' && line[i + 1] <= '3' &&
                       line[i + 2] >= '0' && line[i + 2] <= '7' && line[i + 3] >= '0' && line[i + 3] <= '7';
    if (octal) {
      statement += static_cast<char>((line[i + 1] - '0') * 64 + (line[i + 2] - '0') * 8 + (line[i + 3] - '0'));
      i += 3;
    } else if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '\\') {
      statement += '\\';
      ++i;
    } else {
      statement += line[i];
    }
  }
  return statement;
}

std::vector<std::string> ReadLines(const std::string& path, bool* editor_format) {
  std::vector<std::string> lines;
  std::ifstream in(path, std::ios::binary);
  *editor_format = false;
  for (std::string line; std::getline(in, line);) {
    if (lines.empty() && !*editor_format && line == kEditorCookie) {
      *editor_format = true;
      continue;
    }
    if (!line.empty()) lines.push_back(*editor_format ? UnescapeOctal(line) : Unescape(line));
  }
  return lines;
}

}  // namespace

std::vector<std::string> ReadHistoryFile(const std::string& path) {
  bool editor_format;
  return ReadLines(path, &editor_format);
}

bool AppendHistoryFile(const std::string& path, const std::string& statement) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  // One write: appends from several shells never interleave within a line.
  const std::string line = Escape(statement) + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  return ::close(fd) == 0 && ok;
}

void TidyHistoryFile(const std::string& path, size_t keep) {
  bool editor_format;
  std::vector<std::string> statements = ReadLines(path, &editor_format);
  if (statements.size() <= 2 * keep && !editor_format) return;
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    const size_t first = statements.size() > keep ? statements.size() - keep : 0;
    for (size_t i = first; i < statements.size(); ++i) out << Escape(statements[i]) << '\n';
    if (!out.flush()) return;
  }
  std::rename(temporary.c_str(), path.c_str());
}

}  // namespace lbt
