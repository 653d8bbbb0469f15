"""Replace docs/results.md's text between `<!-- NAME:begin` and `<!-- NAME:end -->` (the markers
included) by FILE's text: how every results script writes its section.

Usage: python3 scripts/put_section.py NAME FILE
"""
import re
import sys

name, section = sys.argv[1], open(sys.argv[2]).read()
path = "docs/results.md"
text = open(path).read()
pattern = r"<!-- " + re.escape(name) + r":begin.*?<!-- " + re.escape(name) + r":end -->\n"
new, n = re.subn(pattern, lambda m: section, text, flags=re.S)
if n != 1:
    sys.exit(f"docs/results.md: expected one {name} section between its markers")
open(path, "w").write(new)
