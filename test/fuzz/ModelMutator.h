//===- ModelMutator.h - structure-aware mutations of ONNX models -*- C++
//-*-===//
//
// libFuzzer's custom mutator for the model harnesses: the bytes are parsed
// as an onnx::ModelProto and edited as a model (an attribute set to an
// extreme, a dim changed or dropped, an initializer resized or retyped, an
// input rewired, an op type swapped, an opset or IR version changed), then
// serialized again. Bytes that do not parse, and a share of those that do,
// get libFuzzer's own byte-level mutations instead.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TEST_FUZZ_MODELMUTATOR_H
#define INFER_TEST_FUZZ_MODELMUTATOR_H

#include <cstddef>
#include <cstdint>

namespace infer::fuzz {

/// Mutates the serialized model in `data` (`size` bytes, room for
/// `maxSize`); returns the new size. `seed` drives every choice.
size_t mutateModel(uint8_t *data, size_t size, size_t maxSize,
                   unsigned int seed);

} // namespace infer::fuzz

#endif // INFER_TEST_FUZZ_MODELMUTATOR_H
