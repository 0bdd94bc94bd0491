/* llama-bench output: see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_LLAMA_BENCH
#include "fuzz-parser.h"
