/* hyperfine output: see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_HYPERFINE
#include "fuzz-parser.h"
