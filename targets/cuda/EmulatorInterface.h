/*===- EmulatorInterface.h - emulated kernels <-> the emulator --*- C -*-===*
 *
 * `infer-compile --target=cuda --gpu-emulation` also builds the model's GPU
 * kernels for this CPU (EmulationLibrary.cpp), into <name>.emu.so, which
 * test/cuda-emulator (a libcuda.so.1 of its own) runs with one fiber per
 * GPU thread. Where a kernel would read a GPU register, wait at a barrier,
 * shuffle within a warp or use workgroup memory, the emulated kernel calls
 * the functions below, which the emulator defines. Both sides include this
 * header: the names the compiler emits calls to are these macros, and the
 * emulator's definitions are checked against these declarations.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_TARGETS_CUDA_EMULATORINTERFACE_H
#define INFER_TARGETS_CUDA_EMULATORINTERFACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* infer_emu_id(which): thread x/y/z (which 0-2), block x/y/z (3-5), block
 * size (6-8), grid size (9-11) of the calling GPU thread. */
#define INFER_EMU_ID "infer_emu_id"
int64_t infer_emu_id(int32_t which);

/* A barrier across the calling thread's block (gpu.barrier). */
#define INFER_EMU_BARRIER "infer_emu_barrier"
void infer_emu_barrier(void);

/* The value of `value` in the lane `offset` away (xor) within groups of
 * `width` lanes of the warp (gpu.shuffle xor). */
#define INFER_EMU_SHUFFLE_XOR_F32 "infer_emu_shuffle_xor_f32"
#define INFER_EMU_SHUFFLE_XOR_I32 "infer_emu_shuffle_xor_i32"
float infer_emu_shuffle_xor_f32(float value, int32_t offset, int32_t width);
int32_t infer_emu_shuffle_xor_i32(int32_t value, int32_t offset, int32_t width);

/* The calling block's workgroup buffer number `index`, `bytes` long. */
#define INFER_EMU_SHARED "infer_emu_shared"
void *infer_emu_shared(int32_t index, int64_t bytes);

/* Kernel K of the GPU module is exported as `K` INFER_EMU_ENTRY_SUFFIX,
 * taking the kernel's parameters as cuLaunchKernel does: an array of
 * pointers to each parameter's value. */
#define INFER_EMU_ENTRY_SUFFIX "__emu"
typedef void (*infer_emu_entry_t)(void **params);

#ifdef __cplusplus
}
#endif

#endif /* INFER_TARGETS_CUDA_EMULATORINTERFACE_H */
