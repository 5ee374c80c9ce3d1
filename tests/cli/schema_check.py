"""Validate scenario files against docs/benchgrid.schema.json (schema.sh).

    schema_check.py SCHEMA FILE...   prints "FILE: ok" or "FILE: invalid: WHY"
                                     for each, exit 0 (the caller decides)
    schema_check.py --defaults SCHEMA
                                     prints "POINTER: bad default V: WHY" for
                                     each property whose `default` is invalid
                                     against its own subschema (editors
                                     insert defaults), then "defaults: N
                                     checked"

YAML is read as YAML 1.2's core schema reads it, as yaml-language-server
does (`on`, `yes` stay strings; true/false, numbers and null are typed),
merge keys are applied, and a `!lua` value becomes its text: what an editor
sees of it."""
import json
import re
import sys

import jsonschema
import yaml


class Loader(yaml.SafeLoader):
    pass


# YAML 1.2 core: only these implicit types (PyYAML defaults to YAML 1.1).
Loader.yaml_implicit_resolvers = {}
Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                             list("tTfF"))
Loader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
                             list("-+0123456789"))
Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))
Loader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
# Merge keys (`<<: *base`), which benchgrid applies in every map.
Loader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])
Loader.add_constructor("!lua", lambda loader, node: str(loader.construct_scalar(node)))


def check(validator, path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = yaml.load(f, Loader=Loader)
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        return "not YAML: %s" % str(e).replace("\n", " ")
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    where = "/".join(str(p) for p in e.absolute_path) or "(top)"
    return "%s: %s" % (where, e.message[:200])


def walk(node, pointer):
    """Every (pointer, subschema) of the schema, depth first."""
    if isinstance(node, dict):
        yield pointer, node
        for k, v in node.items():
            yield from walk(v, "%s/%s" % (pointer, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, "%s/%d" % (pointer, i))


def check_defaults(schema):
    resolver = jsonschema.RefResolver.from_schema(schema)
    n = 0
    for pointer, sub in walk(schema, "#"):
        if "default" not in sub or not pointer.split("/")[-2:-1] == ["properties"]:
            continue
        n += 1
        v = jsonschema.Draft202012Validator(sub, resolver=resolver)
        errors = list(v.iter_errors(sub["default"]))
        if errors:
            print("%s: bad default %s: %s" % (pointer, json.dumps(sub["default"]), errors[0].message[:200]))
    print("defaults: %d checked" % n)


def main():
    if sys.argv[1] == "--defaults":
        with open(sys.argv[2], encoding="utf-8") as f:
            check_defaults(json.load(f))
        return
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        why = check(validator, path)
        print("%s: %s" % (path, "ok" if why is None else "invalid: " + why))


main()
