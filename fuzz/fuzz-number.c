/* One number per line: see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_NUMBER
#include "fuzz-parser.h"
