//===- InputFile.h - the file a libFuzzer harness feeds its input as -*- C++
//-*-===//
//
// The importer and the tools read paths, as users call them, so each
// harness writes its input to a file in a private temporary folder.
// finding() reports a breach of the code's contract and aborts, which
// libFuzzer records as a crash with the input that caused it.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TEST_FUZZ_INPUTFILE_H
#define INFER_TEST_FUZZ_INPUTFILE_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace infer::fuzz {

class InputFile {
public:
  /// The file is `input<extension>` in a new folder under $TMPDIR.
  explicit InputFile(const std::string &extension);
  ~InputFile();
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;

  /// Replaces the file's contents with the input; returns its path.
  const std::string &write(const uint8_t *data, size_t size);

private:
  std::string directory;
  std::string path;
};

/// Prints `message` and aborts (a finding).
[[noreturn]] void finding(const std::string &message);

} // namespace infer::fuzz

#endif // INFER_TEST_FUZZ_INPUTFILE_H
