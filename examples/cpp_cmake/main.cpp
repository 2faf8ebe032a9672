// A C++ program that runs models compiled at build time by
// infer_add_model(): once through the typed entry point of the generated
// header, once through the C++ API (infer/infer.hpp) over the runtime.
#include "tiny_cnn.h"
#include "tiny_cnn_batch.h"
#include "tiny_mlp.h"

#include "infer/infer.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void print(const char *label, infer::Span<const float> values) {
  std::printf("%s:", label);
  for (float v : values) {
    std::printf(" %.9g", v);
  }
  std::printf("\n");
}

} // namespace

int main() {
  try {
    // 1. The typed entry point: no runtime, the caller's buffers.
    float features[1][4] = {{1, 2, 3, 4}};
    float typed_scores[1][2];
    std::vector<unsigned char> workspace(TINY_MLP_WORKSPACE_SIZE + 64);
    void *aligned =
        workspace.data() +
        (64 - reinterpret_cast<std::uintptr_t>(workspace.data()) % 64) % 64;
    if (tiny_mlp_main(&features[0][0], &typed_scores[0][0], aligned) != 0) {
      std::fprintf(stderr, "tiny_mlp_main failed a run-time check\n");
      return 1;
    }
    print("tiny_mlp typed", {&typed_scores[0][0], 2});

    // 2. The same model through the C++ API: a Session reads the caller's
    //    features in place (zero copy) and writes into tensors made once.
    infer::Model mlp = infer::Model::from_abi(tiny_mlp_model);
    infer::Session session(mlp);
    session.bind_input("features", &features[0][0]);
    session.run();
    infer::Span<const float> scores = session.output("scores").data<float>();
    print("tiny_mlp session", scores);
    for (int i = 0; i < 2; ++i) {
      if (scores[i] != typed_scores[0][i]) {
        std::fprintf(stderr, "the session and the typed entry differ\n");
        return 1;
      }
    }

    // 3. The CNN: a diagonal stroke on an 8x8 image, input written in place.
    infer::Model cnn = infer::Model::from_abi(tiny_cnn_model);
    infer::Session cnn_session(cnn);
    infer::Span<float> image = cnn_session.input(0).data<float>();
    for (int i = 0; i < 8; ++i) {
      image[i * 8 + i] = 1.0f;
    }
    cnn_session.run();
    print("tiny_cnn", cnn_session.output(0).data<float>());

    // 4. A dynamic batch: three images, outputs allocated by the run.
    infer::Model batch = infer::Model::from_abi(tiny_cnn_batch_model);
    std::vector<float> images(3 * 64, 0.0f);
    for (int b = 0; b < 3; ++b) {
      for (int i = 0; i < 8; ++i) {
        images[b * 64 + i * 8 + (b == 1 ? 7 - i : i)] = 1.0f;
      }
    }
    std::vector<infer::Tensor> inputs;
    inputs.push_back(infer::Tensor::wrap(images.data(), {3, 1, 8, 8}));
    std::vector<infer::Tensor> outputs = batch.run(inputs);
    std::vector<int64_t> shape = outputs[0].shape();
    std::printf("tiny_cnn_batch shape: %lld x %lld\n",
                static_cast<long long>(shape[0]),
                static_cast<long long>(shape[1]));
    print("tiny_cnn_batch", outputs[0].data<float>());

    // 5. Errors are exceptions carrying the runtime's message.
    std::vector<infer::Tensor> too_big;
    too_big.push_back(infer::Tensor::zeros(INFER_DTYPE_F32, {9, 1, 8, 8}));
    try {
      batch.run(too_big);
      std::fprintf(stderr, "a batch of 9 was not refused\n");
      return 1;
    } catch (const infer::Error &e) {
      std::printf("refused (%s): %s\n", infer_status_code_name(e.code()),
                  e.what());
    }
  } catch (const infer::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
