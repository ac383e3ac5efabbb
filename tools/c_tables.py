"""C source for the generators (gen_names.py, gen_entities.py,
gen_encodings.py): a constant array of numbers."""


def c_array(ctype, cname, values, per_line, separator=", "):
    """`static const CTYPE CNAME[N] = {...};`, per_line values a line."""
    lines = []
    for i in range(0, len(values), per_line):
        lines.append("    " + separator.join(str(v) for v in values[i:i + per_line]) + ",")
    return "static const %s %s[%d] = {\n%s\n};\n" % (
        ctype, cname, len(values), "\n".join(lines))
