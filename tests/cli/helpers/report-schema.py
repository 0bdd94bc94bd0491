#!/usr/bin/python3
# Validates report.json files against docs/report.schema.json (JSON Schema
# 2020-12) with python3-jsonschema. usage: report-schema.py SCHEMA FILE...
# Prints one line per problem (file, the field's path, what is wrong) and
# exits 1 when any file does not validate.
import json
import sys

import jsonschema


def main():
    if len(sys.argv) < 3:
        print("usage: report-schema.py SCHEMA FILE...", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for name in sys.argv[2:]:
        with open(name, encoding="utf-8") as f:
            doc = json.load(f)
        for error in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in error.absolute_path) or "(top)"
            print(f"{name}: {where}: {error.message}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
