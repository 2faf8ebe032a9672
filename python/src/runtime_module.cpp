//===- runtime_module.cpp - infer._runtime: the runtime for Python --------===//
//
// A Model loaded from NAME.so; run() takes a dict of NumPy arrays and
// returns one. Inputs are read in place when they are C-contiguous and of
// the declared dtype (otherwise run() says which input and why); outputs
// are the runtime's own buffers handed to NumPy (no copy). The GIL is
// released while the model runs.

#include "infer/runtime.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace nb = nanobind;

namespace {

/// A runtime failure; becomes infer.Error.
struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(infer_status_t status) {
  if (status) {
    std::string message =
        std::string(infer_status_code_name(infer_status_code(status))) + ": " +
        infer_status_message(status);
    infer_status_free(status);
    throw RuntimeError(message);
  }
}

/// The NumPy dtype name of an infer dtype (bfloat16: its uint16 bits).
const char *numpyName(infer_dtype_t dtype) {
  return dtype == INFER_DTYPE_BF16 ? "uint16" : infer_dtype_name(dtype);
}

nb::dlpack::dtype dlpackOf(infer_dtype_t dtype) {
  using nb::dlpack::dtype_code;
  auto make = [](dtype_code code, int bits) {
    return nb::dlpack::dtype{static_cast<uint8_t>(code),
                             static_cast<uint8_t>(bits), 1};
  };
  switch (dtype) {
  case INFER_DTYPE_F32:
    return make(dtype_code::Float, 32);
  case INFER_DTYPE_F64:
    return make(dtype_code::Float, 64);
  case INFER_DTYPE_F16:
    return make(dtype_code::Float, 16);
  case INFER_DTYPE_I8:
    return make(dtype_code::Int, 8);
  case INFER_DTYPE_I16:
    return make(dtype_code::Int, 16);
  case INFER_DTYPE_I32:
    return make(dtype_code::Int, 32);
  case INFER_DTYPE_I64:
    return make(dtype_code::Int, 64);
  case INFER_DTYPE_U8:
    return make(dtype_code::UInt, 8);
  case INFER_DTYPE_U16:
  case INFER_DTYPE_BF16:
    return make(dtype_code::UInt, 16);
  case INFER_DTYPE_U32:
    return make(dtype_code::UInt, 32);
  case INFER_DTYPE_U64:
    return make(dtype_code::UInt, 64);
  case INFER_DTYPE_BOOL:
    return make(dtype_code::Bool, 8);
  default:
    throw RuntimeError(std::string("UNIMPLEMENTED: dtype ") +
                       infer_dtype_name(dtype) + " has no NumPy equivalent");
  }
}

using Array = nb::ndarray<nb::numpy, nb::device::cpu>;

/// A tensor handed to NumPy: the capsule frees it with the array.
Array toNumpy(infer_tensor_t tensor) {
  int32_t rank = infer_tensor_rank(tensor);
  std::vector<size_t> shape(infer_tensor_shape(tensor),
                            infer_tensor_shape(tensor) + rank);
  nb::capsule owner(tensor, [](void *p) noexcept {
    infer_tensor_release(static_cast<infer_tensor_t>(p));
  });
  return Array(infer_tensor_data(tensor), static_cast<size_t>(rank),
               shape.data(), owner, nullptr,
               dlpackOf(infer_tensor_dtype(tensor)));
}

struct TensorInfo {
  std::string name;
  std::vector<int64_t> shape; // -1: sized at run time
  std::string dtype;
};

class Model {
public:
  Model(const std::string &path, std::optional<std::string> name,
        int intraOpThreads, bool fixedThreads) {
    infer_model_options_t options{};
    options.struct_size = sizeof(options);
    options.intra_op_threads = intraOpThreads;
    options.fixed_threads = fixedThreads ? 1 : 0;
    check(infer_model_load_with_options(
        path.c_str(), name ? name->c_str() : nullptr, &options, &model_));
  }
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;
  ~Model() { infer_model_release(model_); }

  std::string name() const { return infer_model_name(model_); }
  int intraOpThreads() const { return infer_model_intra_op_threads(model_); }
  bool isDynamic() const { return infer_model_is_dynamic(model_) != 0; }
  std::vector<TensorInfo> inputs() const {
    return infos(infer_model_num_inputs(model_), infer_model_input);
  }
  std::vector<TensorInfo> outputs() const {
    return infos(infer_model_num_outputs(model_), infer_model_output);
  }

  nb::dict run(nb::dict feeds) const {
    std::vector<infer_tensor_t> outputs = runTensors(feeds);
    nb::dict result;
    for (size_t i = 0; i < outputs.size(); ++i) {
      result[infer_model_output(model_, i)->name] = toNumpy(outputs[i]);
    }
    return result;
  }

  /// Latency of `iterations` runs on `feeds` (or inputs of random values)
  /// after `warmup` runs: milliseconds p50/p90/p99/min/mean, and runs/s.
  nb::dict benchmark(int iterations, int warmup,
                     std::optional<nb::dict> feeds) const {
    if (iterations < 1 || warmup < 0) {
      throw nb::value_error("iterations must be >= 1 and warmup >= 0");
    }
    nb::dict inputs = feeds ? *feeds : randomFeeds();
    std::vector<Held> held = hold(inputs);
    std::vector<double> ms;
    {
      nb::gil_scoped_release release;
      for (int i = 0; i < warmup + iterations; ++i) {
        auto start = std::chrono::steady_clock::now();
        std::vector<infer_tensor_t> outputs = runHeld(held);
        auto end = std::chrono::steady_clock::now();
        for (infer_tensor_t t : outputs) {
          infer_tensor_release(t);
        }
        if (i >= warmup) {
          ms.push_back(
              std::chrono::duration<double, std::milli>(end - start).count());
        }
      }
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    auto pct = [&](double p) {
      size_t index = static_cast<size_t>(p * (sorted.size() - 1) + 0.5);
      return sorted[index];
    };
    double sum = 0;
    for (double v : ms) {
      sum += v;
    }
    nb::dict result;
    result["iterations"] = iterations;
    result["p50_ms"] = pct(0.50);
    result["p90_ms"] = pct(0.90);
    result["p99_ms"] = pct(0.99);
    result["min_ms"] = sorted.front();
    result["mean_ms"] = sum / ms.size();
    result["runs_per_s"] = 1000.0 * ms.size() / sum;
    result["intra_op_threads"] = intraOpThreads();
    return result;
  }

private:
  /// An input tensor over a NumPy array the held list keeps alive.
  struct Held {
    Array array;
    infer_tensor_t tensor = nullptr;
  };

  std::vector<TensorInfo>
  infos(size_t count,
        const infer_abi_tensor_t *(*get)(infer_model_t, size_t)) const {
    std::vector<TensorInfo> result;
    for (size_t i = 0; i < count; ++i) {
      const infer_abi_tensor_t *t = get(model_, i);
      result.push_back({t->name,
                        std::vector<int64_t>(t->shape, t->shape + t->rank),
                        numpyName(static_cast<infer_dtype_t>(t->dtype))});
    }
    return result;
  }

  /// The inputs as tensors over the arrays (no copy), in model order.
  std::vector<Held> hold(nb::dict feeds) const {
    size_t n = infer_model_num_inputs(model_);
    std::vector<Held> held(n);
    std::vector<bool> seen(n, false);
    auto releaseAll = [&] {
      for (Held &h : held) {
        infer_tensor_release(h.tensor);
      }
    };
    for (auto [key, value] : feeds) {
      std::string name = nb::cast<std::string>(nb::str(key));
      size_t index = 0;
      infer_status_t status =
          infer_model_find_input(model_, name.c_str(), &index);
      if (status) {
        releaseAll();
        check(status);
      }
      const infer_abi_tensor_t *info = infer_model_input(model_, index);
      auto dtype = static_cast<infer_dtype_t>(info->dtype);
      Array array;
      if (!nb::try_cast(value, array) || array.dtype() != dlpackOf(dtype)) {
        releaseAll();
        throw nb::type_error(("input '" + name + "' must be a NumPy array of " +
                              numpyName(dtype) +
                              " (the model's dtype); convert it with "
                              "np.asarray(x, dtype=np." +
                              numpyName(dtype) + ")")
                                 .c_str());
      }
      if (!isCContiguous(array)) {
        releaseAll();
        throw nb::value_error(("input '" + name +
                               "' is not C-contiguous; pass "
                               "np.ascontiguousarray(x)")
                                  .c_str());
      }
      std::vector<int64_t> shape(array.ndim());
      for (size_t d = 0; d < array.ndim(); ++d) {
        shape[d] = static_cast<int64_t>(array.shape(d));
      }
      held[index].array = array;
      infer_status_t wrapped =
          infer_tensor_wrap(dtype, static_cast<int32_t>(shape.size()),
                            shape.data(), array.data(), &held[index].tensor);
      if (wrapped) {
        releaseAll();
        check(wrapped);
      }
      seen[index] = true;
    }
    for (size_t i = 0; i < n; ++i) {
      if (!seen[i]) {
        releaseAll();
        throw nb::value_error((std::string("missing input '") +
                               infer_model_input(model_, i)->name + "'")
                                  .c_str());
      }
    }
    return held;
  }

  static bool isCContiguous(const Array &array) {
    int64_t expected = 1;
    for (size_t d = array.ndim(); d-- > 0;) {
      if (array.shape(d) != 1 && array.stride(d) != expected) {
        return false;
      }
      expected *= static_cast<int64_t>(array.shape(d));
    }
    return true;
  }

  /// Runs on held inputs (no GIL needed); throws on failure.
  std::vector<infer_tensor_t> runHeld(const std::vector<Held> &held) const {
    std::vector<infer_tensor_t> inputs;
    for (const Held &h : held) {
      inputs.push_back(h.tensor);
    }
    std::vector<infer_tensor_t> outputs(infer_model_num_outputs(model_));
    check(infer_model_run(model_, inputs.data(), inputs.size(), outputs.data(),
                          outputs.size()));
    return outputs;
  }

  std::vector<infer_tensor_t> runTensors(nb::dict feeds) const {
    std::vector<Held> held = hold(feeds);
    std::vector<infer_tensor_t> outputs;
    std::string error;
    {
      nb::gil_scoped_release release;
      try {
        outputs = runHeld(held);
      } catch (const RuntimeError &e) {
        error = e.what();
      }
    }
    for (Held &h : held) {
      infer_tensor_release(h.tensor);
    }
    if (!error.empty()) {
      throw RuntimeError(error);
    }
    return outputs;
  }

  /// Inputs of random values for benchmark(): dynamic dims take the
  /// optimal size of the model's shape profile.
  nb::dict randomFeeds() const {
    nb::module_ np = nb::module_::import_("numpy");
    nb::object rng = np.attr("random").attr("default_rng")(0);
    nb::dict feeds;
    for (size_t i = 0; i < infer_model_num_inputs(model_); ++i) {
      const infer_abi_tensor_t *t = infer_model_input(model_, i);
      std::vector<int64_t> shape(t->shape, t->shape + t->rank);
      std::vector<int64_t> opt(t->rank);
      check(infer_model_input_range(model_, i, nullptr, opt.data(), nullptr));
      nb::list dims;
      for (int32_t d = 0; d < t->rank; ++d) {
        dims.append(shape[d] < 0 ? opt[d] : shape[d]);
      }
      const char *dtype = numpyName(static_cast<infer_dtype_t>(t->dtype));
      nb::object values = rng.attr("standard_normal")(nb::tuple(dims));
      feeds[t->name] = np.attr("ascontiguousarray")(
          values.attr("astype")(std::string(dtype) == "bool" ? "bool" : dtype));
    }
    return feeds;
  }

  infer_model_t model_ = nullptr;
};

} // namespace

NB_MODULE(_runtime, m) {
  m.doc() = "infer's runtime: load and run models compiled by infer-compile";
  nb::exception<RuntimeError>(m, "Error", PyExc_RuntimeError);

  nb::class_<TensorInfo>(m, "TensorInfo", "A model input or output as declared")
      .def_ro("name", &TensorInfo::name)
      .def_prop_ro(
          "shape",
          [](const TensorInfo &t) {
            nb::list dims;
            for (int64_t d : t.shape) {
              dims.append(d < 0 ? nb::object(nb::none())
                                : nb::object(nb::int_(d)));
            }
            return nb::tuple(dims);
          },
          nb::sig("def shape(self) -> tuple[int | None, ...]"),
          "dims; None where sized at run time")
      .def_ro("dtype", &TensorInfo::dtype, "NumPy dtype name")
      .def("__repr__", [](const TensorInfo &t) {
        std::string dims;
        for (int64_t d : t.shape) {
          dims += (dims.empty() ? "" : ", ") +
                  (d < 0 ? std::string("?") : std::to_string(d));
        }
        return "TensorInfo('" + t.name + "', " + t.dtype + "[" + dims + "])";
      });

  nb::class_<Model>(m, "Model", "A compiled model loaded from NAME.so")
      .def(nb::init<const std::string &, std::optional<std::string>, int,
                    bool>(),
           nb::arg("path"), nb::arg("name") = nb::none(),
           nb::arg("intra_op_threads") = 0, nb::arg("fixed_threads") = false,
           "Loads NAME.so (name: its symbol prefix, default the file stem); "
           "intra_op_threads: threads per run, 0 one per CPU; fixed_threads: "
           "use them all even when other work keeps the CPUs busy")
      .def_prop_ro("name", &Model::name)
      .def_prop_ro("intra_op_threads", &Model::intraOpThreads)
      .def_prop_ro("is_dynamic", &Model::isDynamic)
      .def_prop_ro("inputs", &Model::inputs)
      .def_prop_ro("outputs", &Model::outputs)
      .def("run", &Model::run, nb::arg("feeds"),
           nb::sig("def run(self, feeds: dict[str, numpy.ndarray]) -> "
                   "dict[str, numpy.ndarray]"),
           "Runs once: {input name: array} -> {output name: array}")
      .def("benchmark", &Model::benchmark, nb::arg("iterations") = 100,
           nb::arg("warmup") = 10, nb::arg("feeds") = nb::none(),
           nb::sig("def benchmark(self, iterations: int = 100, warmup: int = "
                   "10, feeds: dict[str, numpy.ndarray] | None = None) -> "
                   "dict[str, float]"),
           "Times runs: p50_ms, p90_ms, p99_ms, min_ms, mean_ms, runs_per_s");
}
