/* libFuzzer's entry for programs that keep their own main (compiler-rt's FuzzerInterface.h).
   Only declared here: scripts/stress/fuzz.sh links libclang_rt.fuzzer_no_main when it builds with
   -DFUZZING, and the plain build never calls it, so it links without libFuzzer. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
