/* KTAP/KUnit/kselftest results: see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_KTAP
#include "fuzz-parser.h"
