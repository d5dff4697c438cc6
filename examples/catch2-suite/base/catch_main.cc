// Catch2 v2's main and implementation (header-only Catch2 compiles them where CATCH_CONFIG_MAIN
// is defined), in a file of their own so that the Makefile compiles them with less optimisation:
// they hold no benchmarked code, and at -O2 they take twice as long to compile (26 s against 13 s
// of CPU here). Catch2 v3 brings its main as a library (Catch2Main).
#if !__has_include(<catch2/catch_all.hpp>)
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>
#endif
