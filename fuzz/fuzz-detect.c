/* Any benchmark output, its kind recognised by content (parser_detect()): see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_AUTO
#include "fuzz-parser.h"
