//===- OutputFile.h - writing artifacts without writing through links -*- C++
//-*-===//
//
// Every file infer-compile writes (objects, headers, PTX, HLS sources, IR)
// goes through here. A regular file is written as a new file that then
// replaces the path, so a symlink or hard link already there is replaced,
// never written through (a model compiled into a folder the user shares
// cannot overwrite another file). A path naming a stream (a device such as
// /dev/stdout, a FIFO) is written in place.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_OUTPUTFILE_H
#define INFER_TARGETS_COMMON_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace infer {

/// Writes what `write` produces to `path` ("-" is standard output).
llvm::Error
writeOutputFile(llvm::StringRef path,
                llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write);

/// `data` to `path`, the same way.
llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef data);

/// Removes the symlink or regular file at `path`, if any, so that an
/// external tool told to write there (a linker, ptxas) creates a new file
/// instead of writing through a link. Streams (devices, FIFOs) are kept.
void clearOutputPath(llvm::StringRef path);

} // namespace infer

#endif // INFER_TARGETS_COMMON_OUTPUTFILE_H
