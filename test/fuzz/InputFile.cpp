//===- InputFile.cpp - the file a libFuzzer harness feeds its input as ----===//

#include "test/fuzz/InputFile.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace infer::fuzz {

void finding(const std::string &message) {
  std::fprintf(stderr, "infer-fuzz: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

InputFile::InputFile(const std::string &extension) {
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/infer-fuzz-XXXXXX";
  if (!mkdtemp(pattern.data())) {
    finding("cannot create a temporary folder from " + pattern);
  }
  directory = pattern;
  path = directory + "/input" + extension;
}

InputFile::~InputFile() {
  unlink(path.c_str());
  rmdir(directory.c_str());
}

const std::string &InputFile::write(const uint8_t *data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(data),
            static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    finding("cannot write " + path);
  }
  return path;
}

} // namespace infer::fuzz
