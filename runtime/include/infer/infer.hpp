//===- infer.hpp - C++ API over the infer runtime -----------*- C++ -*-===//
//
// Header-only C++17 wrappers over the C API of infer/runtime.h: owning,
// move-only handles (Model, Tensor, Session), spans over tensor data, and
// errors as exceptions that carry the runtime's code and message.
//
//   infer::Model model = infer::Model::load("resnet.so");
//   infer::Session session(model);              // inputs/outputs made once
//   std::copy(image.begin(), image.end(), session.input("x").data<float>().begin());
//   session.run();                              // allocates nothing
//   infer::Span<const float> probs = session.output(0).data<float>();
//
// Every call that can fail throws infer::Error; the try_* functions
// return an infer::Status instead (for code built with -fno-exceptions,
// define INFER_NO_EXCEPTIONS and use only them).
//
//===------------------------------------------------------------------===//

#ifndef INFER_RUNTIME_INFER_HPP
#define INFER_RUNTIME_INFER_HPP

#include "infer/runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#ifndef INFER_NO_EXCEPTIONS
#include <stdexcept>
#endif

namespace infer {

/// A contiguous run of `T`s this object does not own (std::span's subset).
template <typename T> class Span {
public:
  constexpr Span() = default;
  constexpr Span(T *data, std::size_t size) : data_(data), size_(size) {}
  /// Span<float> to Span<const float>.
  template <typename U, typename = std::enable_if_t<
                            std::is_convertible_v<U (*)[], T (*)[]>>>
  constexpr Span(const Span<U> &other)
      : data_(other.data()), size_(other.size()) {}
  constexpr T *data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T &operator[](std::size_t i) const { return data_[i]; }
  constexpr T *begin() const { return data_; }
  constexpr T *end() const { return data_ + size_; }

private:
  T *data_ = nullptr;
  std::size_t size_ = 0;
};

/// The outcome of a try_* call: ok(), or a code and a message. Owns the
/// runtime's infer_status_t.
class Status {
public:
  Status() = default;
  explicit Status(infer_status_t status) : status_(status) {}
  Status(const Status &) = delete;
  Status &operator=(const Status &) = delete;
  Status(Status &&other) noexcept : status_(other.status_) {
    other.status_ = nullptr;
  }
  Status &operator=(Status &&other) noexcept {
    std::swap(status_, other.status_);
    return *this;
  }
  ~Status() { infer_status_free(status_); }

  bool ok() const { return status_ == nullptr; }
  explicit operator bool() const { return ok(); }
  infer_status_code_t code() const { return infer_status_code(status_); }
  /// "INVALID_ARGUMENT: input 'x' ..." style text; "OK" when ok().
  std::string message() const {
    return ok() ? "OK" : infer_status_message(status_);
  }

private:
  infer_status_t status_ = nullptr;
};

#ifndef INFER_NO_EXCEPTIONS
/// Thrown by every call that fails: the runtime's code and message.
class Error : public std::runtime_error {
public:
  Error(infer_status_code_t code, const std::string &message)
      : std::runtime_error(message), code_(code) {}
  infer_status_code_t code() const { return code_; }

private:
  infer_status_code_t code_;
};

namespace detail {
inline void check(Status status) {
  if (!status.ok()) {
    throw Error(status.code(), status.message());
  }
}
inline void check(infer_status_t status) { check(Status(status)); }
} // namespace detail
#endif

/// The runtime dtype of a C++ element type.
template <typename T> struct DTypeOf;
#define INFER_HPP_DTYPE(T, D)                                                  \
  template <> struct DTypeOf<T> {                                              \
    static constexpr infer_dtype_t value = D;                                  \
  };
INFER_HPP_DTYPE(float, INFER_DTYPE_F32)
INFER_HPP_DTYPE(double, INFER_DTYPE_F64)
INFER_HPP_DTYPE(int8_t, INFER_DTYPE_I8)
INFER_HPP_DTYPE(uint8_t, INFER_DTYPE_U8)
INFER_HPP_DTYPE(int16_t, INFER_DTYPE_I16)
INFER_HPP_DTYPE(uint16_t, INFER_DTYPE_U16)
INFER_HPP_DTYPE(int32_t, INFER_DTYPE_I32)
INFER_HPP_DTYPE(uint32_t, INFER_DTYPE_U32)
INFER_HPP_DTYPE(int64_t, INFER_DTYPE_I64)
INFER_HPP_DTYPE(uint64_t, INFER_DTYPE_U64)
INFER_HPP_DTYPE(bool, INFER_DTYPE_BOOL)
#undef INFER_HPP_DTYPE

/// A dense row-major host tensor (owns an infer_tensor_t). Either owns its
/// buffer (Tensor::zeros) or views the caller's memory (Tensor::wrap).
class Tensor {
public:
  Tensor() = default;
  /// Takes ownership of `tensor`.
  explicit Tensor(infer_tensor_t tensor) : tensor_(tensor) {}
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;
  Tensor(Tensor &&other) noexcept : tensor_(other.tensor_) {
    other.tensor_ = nullptr;
  }
  Tensor &operator=(Tensor &&other) noexcept {
    std::swap(tensor_, other.tensor_);
    return *this;
  }
  ~Tensor() { infer_tensor_release(tensor_); }

  static Status try_zeros(infer_dtype_t dtype,
                          const std::vector<int64_t> &shape, Tensor &out) {
    infer_tensor_t t = nullptr;
    Status status(infer_tensor_create(dtype, static_cast<int32_t>(shape.size()),
                                      shape.data(), &t));
    out = Tensor(t);
    return status;
  }
  /// A view of `data` (no copy), which must outlive the tensor and hold the
  /// shape's elements.
  template <typename T>
  static Status try_wrap(T *data, const std::vector<int64_t> &shape,
                         Tensor &out) {
    infer_tensor_t t = nullptr;
    Status status(infer_tensor_wrap(DTypeOf<T>::value,
                                    static_cast<int32_t>(shape.size()),
                                    shape.data(), data, &t));
    out = Tensor(t);
    return status;
  }
#ifndef INFER_NO_EXCEPTIONS
  static Tensor zeros(infer_dtype_t dtype, const std::vector<int64_t> &shape) {
    Tensor t;
    detail::check(try_zeros(dtype, shape, t));
    return t;
  }
  template <typename T>
  static Tensor wrap(T *data, const std::vector<int64_t> &shape) {
    Tensor t;
    detail::check(try_wrap(data, shape, t));
    return t;
  }
#endif
  /// The elements as `T`. When T is not the tensor's dtype: throws
  /// INVALID_ARGUMENT (an empty span with INFER_NO_EXCEPTIONS).
  template <typename T> Span<T> data() const {
    if (DTypeOf<T>::value != dtype()) {
#ifndef INFER_NO_EXCEPTIONS
      throw Error(INFER_INVALID_ARGUMENT,
                  std::string("the tensor holds ") + infer_dtype_name(dtype()) +
                      ", not " + infer_dtype_name(DTypeOf<T>::value));
#else
      return Span<T>();
#endif
    }
    return Span<T>(static_cast<T *>(infer_tensor_data(tensor_)),
                   num_elements());
  }

  explicit operator bool() const { return tensor_ != nullptr; }
  infer_tensor_t get() const { return tensor_; }
  /// Gives up ownership.
  infer_tensor_t release() { return std::exchange(tensor_, nullptr); }
  infer_dtype_t dtype() const { return infer_tensor_dtype(tensor_); }
  std::vector<int64_t> shape() const {
    const int64_t *dims = infer_tensor_shape(tensor_);
    return std::vector<int64_t>(dims, dims + infer_tensor_rank(tensor_));
  }
  std::size_t num_elements() const { return infer_tensor_num_elements(tensor_); }
  std::size_t byte_size() const { return infer_tensor_byte_size(tensor_); }
  Span<std::byte> bytes() const {
    return Span<std::byte>(static_cast<std::byte *>(infer_tensor_data(tensor_)),
                           byte_size());
  }

private:
  infer_tensor_t tensor_ = nullptr;
};

/// A model input or output as declared: -1 marks a dim sized at run time.
struct TensorInfo {
  std::string name;
  infer_dtype_t dtype;
  std::vector<int64_t> shape;
};

/// How a model runs (infer_model_options_t).
struct ModelOptions {
  /// Threads one run uses, the caller's included; 0: one per CPU.
  int intra_op_threads = 0;
};

/// A loaded model (owns an infer_model_t). Immutable: run may be called
/// from several threads at once.
class Model {
public:
  using Options = ModelOptions;

  Model() = default;
  explicit Model(infer_model_t model) : model_(model) {}
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;
  Model(Model &&other) noexcept : model_(other.model_) {
    other.model_ = nullptr;
  }
  Model &operator=(Model &&other) noexcept {
    std::swap(model_, other.model_);
    return *this;
  }
  ~Model() { infer_model_release(model_); }

  /// From the shared library infer-compile wrote (NAME.so); `name` empty:
  /// the file's stem.
  static Status try_load(const std::string &path, Model &out,
                         const std::string &name = "", Options options = {}) {
    infer_model_options_t opts = toC(options);
    infer_model_t m = nullptr;
    Status status(infer_model_load_with_options(
        path.c_str(), name.empty() ? nullptr : name.c_str(), &opts, &m));
    out = Model(m);
    return status;
  }
  /// From a model linked into the program: Model::from_abi(resnet_model).
  static Status try_from_abi(const infer_abi_model_t &abi, Model &out,
                             Options options = {}) {
    infer_model_options_t opts = toC(options);
    infer_model_t m = nullptr;
    Status status(infer_model_from_abi_with_options(&abi, &opts, &m));
    out = Model(m);
    return status;
  }
#ifndef INFER_NO_EXCEPTIONS
  static Model load(const std::string &path, const std::string &name = "",
                    Options options = {}) {
    Model m;
    detail::check(try_load(path, m, name, options));
    return m;
  }
  static Model from_abi(const infer_abi_model_t &abi, Options options = {}) {
    Model m;
    detail::check(try_from_abi(abi, m, options));
    return m;
  }
#endif

  explicit operator bool() const { return model_ != nullptr; }
  infer_model_t get() const { return model_; }
  std::string name() const { return infer_model_name(model_); }
  int intra_op_threads() const { return infer_model_intra_op_threads(model_); }
  bool is_dynamic() const { return infer_model_is_dynamic(model_) != 0; }
  std::vector<TensorInfo> inputs() const {
    return infos(infer_model_num_inputs(model_), infer_model_input);
  }
  std::vector<TensorInfo> outputs() const {
    return infos(infer_model_num_outputs(model_), infer_model_output);
  }

  /// Runs once; `outputs` receives one new tensor per model output.
  Status try_run(const std::vector<Tensor> &inputs,
                 std::vector<Tensor> &outputs) const {
    std::vector<infer_tensor_t> in = handles(inputs);
    std::vector<infer_tensor_t> out(infer_model_num_outputs(model_), nullptr);
    Status status(infer_model_run(model_, in.data(), in.size(), out.data(),
                                  out.size()));
    outputs.clear();
    for (infer_tensor_t t : out) {
      outputs.emplace_back(t);
    }
    return status;
  }
  /// Runs once into tensors the caller made (static shapes): allocates
  /// nothing.
  Status try_run_into(const std::vector<Tensor> &inputs,
                      const std::vector<Tensor> &outputs) const {
    std::vector<infer_tensor_t> in = handles(inputs);
    std::vector<infer_tensor_t> out = handles(outputs);
    return Status(infer_model_run_into(model_, in.data(), in.size(),
                                       out.data(), out.size()));
  }
#ifndef INFER_NO_EXCEPTIONS
  std::vector<Tensor> run(const std::vector<Tensor> &inputs) const {
    std::vector<Tensor> outputs;
    detail::check(try_run(inputs, outputs));
    return outputs;
  }
  void run_into(const std::vector<Tensor> &inputs,
                const std::vector<Tensor> &outputs) const {
    detail::check(try_run_into(inputs, outputs));
  }
  /// The index of the input/output called `name` (NOT_FOUND lists them).
  std::size_t input_index(const std::string &name) const {
    std::size_t index = 0;
    detail::check(infer_model_find_input(model_, name.c_str(), &index));
    return index;
  }
  std::size_t output_index(const std::string &name) const {
    std::size_t index = 0;
    detail::check(infer_model_find_output(model_, name.c_str(), &index));
    return index;
  }
#endif

private:
  static infer_model_options_t toC(const Options &options) {
    infer_model_options_t opts{};
    opts.struct_size = sizeof(opts);
    opts.intra_op_threads = options.intra_op_threads;
    return opts;
  }
  template <typename Get>
  std::vector<TensorInfo> infos(std::size_t count, Get get) const {
    std::vector<TensorInfo> result;
    for (std::size_t i = 0; i < count; ++i) {
      const infer_abi_tensor_t *t = get(model_, i);
      result.push_back({t->name ? t->name : "",
                        static_cast<infer_dtype_t>(t->dtype),
                        std::vector<int64_t>(t->shape, t->shape + t->rank)});
    }
    return result;
  }
  static std::vector<infer_tensor_t> handles(const std::vector<Tensor> &ts) {
    std::vector<infer_tensor_t> result;
    result.reserve(ts.size());
    for (const Tensor &t : ts) {
      result.push_back(t.get());
    }
    return result;
  }

  infer_model_t model_ = nullptr;
};

#ifndef INFER_NO_EXCEPTIONS
/// One caller's inputs and outputs for a model of static shapes, made
/// once: write the inputs in place (or bind your own memory), run(), read
/// the outputs. run() allocates nothing. One Session per calling thread;
/// the model must outlive it.
class Session {
public:
  explicit Session(const Model &model) : model_(&model) {
    if (model.is_dynamic()) {
      throw Error(INFER_INVALID_ARGUMENT,
                  "Session needs static shapes; model '" + model.name() +
                      "' has dims sized at run time: use Model::run");
    }
    for (const TensorInfo &info : model.inputs()) {
      inputs_.push_back(Tensor::zeros(info.dtype, info.shape));
    }
    for (const TensorInfo &info : model.outputs()) {
      outputs_.push_back(Tensor::zeros(info.dtype, info.shape));
    }
  }

  Tensor &input(std::size_t index) { return inputs_.at(index); }
  Tensor &input(const std::string &name) {
    return inputs_[model_->input_index(name)];
  }
  const Tensor &output(std::size_t index) const { return outputs_.at(index); }
  const Tensor &output(const std::string &name) const {
    return outputs_[model_->output_index(name)];
  }
  /// Reads input `name` from the caller's memory from now on (zero copy):
  /// `data` must outlive the session and hold the input's shape.
  template <typename T> void bind_input(const std::string &name, T *data) {
    std::size_t index = model_->input_index(name);
    inputs_[index] = Tensor::wrap(data, inputs_[index].shape());
  }
  /// Writes output `name` into the caller's memory from now on.
  template <typename T> void bind_output(const std::string &name, T *data) {
    std::size_t index = model_->output_index(name);
    outputs_[index] = Tensor::wrap(data, outputs_[index].shape());
  }
  void run() { model_->run_into(inputs_, outputs_); }

private:
  const Model *model_;
  std::vector<Tensor> inputs_;
  std::vector<Tensor> outputs_;
};
#endif

} // namespace infer

#endif // INFER_RUNTIME_INFER_HPP
