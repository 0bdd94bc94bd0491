/* Any JSON, one number picked by a selector (the first line of the input): see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_JSON
#include "fuzz-parser.h"
