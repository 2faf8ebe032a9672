/*===- elf_check.h - is a file a whole shared object? ------------------===*
 *
 * dlopen maps a shared object and touches its pages: a truncated file
 * faults (SIGBUS) inside the loader instead of failing. Checking the ELF
 * headers against the file's size first turns that into a status.
 *
 *===------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_ELF_CHECK_H
#define INFER_RUNTIME_ELF_CHECK_H

#include "infer/status.h"

/* NULL when `path` is a regular file holding an ELF shared object of this
 * machine's class and byte order whose headers and loadable segments lie
 * inside the file; otherwise a status saying what is wrong. */
infer_status_t infer_check_shared_object(const char *path);

#endif /* INFER_RUNTIME_ELF_CHECK_H */
