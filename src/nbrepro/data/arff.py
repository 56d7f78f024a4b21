# SPDX-License-Identifier: GPL-3.0-or-later
"""A strict ARFF reader that keeps Weka's semantics.

Hand-written because liac-arff rejects files Weka reads (a tab after ``@attribute``,
the old ``INTEGER [a,b]`` range syntax) and because nominal value order must be kept
exactly as declared: Weka's value order decides tie-breaks and bin labels.

Result: a DataFrame whose nominal columns are ``Categorical`` with the declared
categories (in order, including values that never occur) and whose numeric columns are
float64 with NaN for ``?``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import ArffError


@dataclass
class Attribute:
    name: str
    kind: str  # "nominal" | "numeric" | "string"
    values: list[str] | None = None


_NUMERIC_TYPES = {"numeric", "real", "integer"}


def _unquote(tok: str) -> str:
    tok = tok.strip()
    if len(tok) >= 2 and tok[0] == tok[-1] and tok[0] in "'\"":
        inner = tok[1:-1]
        return re.sub(r"\\(.)", r"\1", inner)
    return tok


MISSING = None  # an unquoted ``?``; a quoted ``'?'`` is an ordinary value, as in Weka's reader

# What Java's Double.valueOf (Weka's ArffReader) reads as a number: a decimal with an optional
# exponent and an optional f/F/d/D suffix, or a hexadecimal float. Python's float() accepts more
# ('5_1' as 51, 'inf', 'nan'), so values are checked against this first.
_JAVA_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?")
_JAVA_HEX = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?")
_JAVA_SPECIAL = re.compile(r"[+-]?(?:NaN|Infinity)[fFdD]?")
# a whole column of plain decimals (no suffix, no hexadecimal), one per line: converted at once
_PLAIN = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_PLAIN_COLUMN = re.compile(rf"{_PLAIN}(?:\n{_PLAIN})*")


def parse_number(v: str, where: str, attribute: str) -> float:
    """A numeric ARFF value as Weka reads it; anything else, and Java's NaN / Infinity (which would
    break every later step), is an error naming the file, line and attribute."""
    if _JAVA_DECIMAL.fullmatch(v):
        return float(v.rstrip("fFdD"))
    if _JAVA_HEX.fullmatch(v):
        return float.fromhex(v.rstrip("fFdD"))
    if _JAVA_SPECIAL.fullmatch(v):
        raise ArffError(f"{where}: attribute {attribute!r}: {v!r} is not a finite number (Weka reads it as "
                        f"{v.strip('+-').rstrip('fFdD')}; nbrepro refuses it: mark a missing value with ?)")
    raise ArffError(f"{where}: attribute {attribute!r}: {v!r} is not a number")


def _numeric_column(tokens: list, name: str, path, row_lines: list) -> np.ndarray:
    """A numeric attribute's tokens (None where missing) as float64. A column of plain decimals
    is checked by one regular expression and converted by numpy in one call (numpy's str → float
    is Python's correctly rounded float(), so the same numbers as ``parse_number``); any other
    column goes value by value, so that an error names its line."""
    present = [t for t in tokens if t is not None]
    out = np.full(len(tokens), np.nan)
    known = np.fromiter((t is not None for t in tokens), dtype=bool, count=len(tokens))
    if present and _PLAIN_COLUMN.fullmatch("\n".join(present)):
        out[known] = np.array(present, dtype=np.float64)
    else:
        out[known] = [parse_number(t, f"{path}:{row_lines[i]}", name) for i, t in enumerate(tokens) if t is not None]
    if np.isinf(out).any():
        # a decimal beyond the double range (1e400): Java's Double.valueOf gives Infinity, refused as above
        i = int(np.flatnonzero(np.isinf(out))[0])
        raise ArffError(f"{path}:{row_lines[i]}: attribute {name!r}: {tokens[i]!r} is beyond the range of a double "
                        "(Weka reads it as Infinity; nbrepro refuses it: mark a missing value with ?)")
    return out


def _split_values(s: str, where: str) -> list[str | None]:
    """Split a comma-separated list honouring '…' and "…" quotes and backslash escapes.

    An unquoted ``?`` becomes ``MISSING``; quoted tokens lose their quotes. An unquoted ``%``
    starts a comment that runs to the end of the line, as in Weka's reader (its tokenizer's
    comment character), so a row may end in a comment.
    """
    if "'" not in s and '"' not in s:
        s = s.split("%", 1)[0]
        return [None if t == "?" else t for t in (t.strip() for t in s.split(","))]
    out, buf, quote, i = [], [], None, 0
    quoted = False
    while i < len(s):
        c = s[i]
        if quote:
            if c == "\\" and i + 1 < len(s):
                buf.append(s[i + 1])
                i += 2
                continue
            if c == quote:
                quote = None
            else:
                buf.append(c)
        elif c in "'\"" and not "".join(buf).strip():
            quote = c
            quoted = True
            buf = []
        elif c == ",":
            out.append(_token(buf, quoted))
            buf, quoted = [], False
        elif c == "%":
            break   # a comment to the end of the line
        elif quoted and c in " \t":
            pass    # blanks after a closing quote are not part of the value
        else:
            buf.append(c)
        i += 1
    if quote:
        raise ArffError(f"{where}: unterminated quote")
    out.append(_token(buf, quoted))
    return out


def _token(buf: list[str], quoted: bool) -> str | None:
    tok = "".join(buf) if quoted else "".join(buf).strip()
    return None if (tok == "?" and not quoted) else tok


def _parse_attribute(rest: str, where: str) -> Attribute:
    rest = rest.strip()
    if not rest:
        raise ArffError(f"{where}: @attribute without a name")
    if rest[0] in "'\"":
        q = rest[0]
        end = 1
        while end < len(rest):
            if rest[end] == "\\":
                end += 2
                continue
            if rest[end] == q:
                break
            end += 1
        if end >= len(rest):
            raise ArffError(f"{where}: unterminated quoted attribute name")
        name, typ = _unquote(rest[: end + 1]), rest[end + 1 :].strip()
    else:
        parts = rest.split(None, 1)
        if len(parts) < 2:
            raise ArffError(f"{where}: attribute {parts[0]!r} has no type")
        name, typ = parts[0], parts[1].strip()
    if typ.startswith("{"):
        if not typ.endswith("}"):
            raise ArffError(f"{where}: nominal attribute {name!r}: missing closing '}}'")
        values = _split_values(typ[1:-1], where)
        if any(v == "" or v is None for v in values):
            raise ArffError(f"{where}: nominal attribute {name!r} declares an empty value")
        if len(set(values)) != len(values):
            raise ArffError(f"{where}: nominal attribute {name!r} declares a value twice")
        return Attribute(name, "nominal", values)
    word = typ.split()[0].split("[")[0].lower()
    if word in _NUMERIC_TYPES:
        return Attribute(name, "numeric")  # 'INTEGER [0,9]': the range is informative only
    if word == "string":
        return Attribute(name, "string")
    raise ArffError(f"{where}: attribute {name!r} has unsupported type {typ!r}")


def class_name(names: list[str], class_attribute: str) -> str:
    """The class attribute's name among a file's attributes: ``last``, ``first`` or a name."""
    if class_attribute in ("last", "first") and names:
        return names[-1] if class_attribute == "last" else names[0]
    return class_attribute


def read_attributes(path: str | Path) -> list[Attribute]:
    """The attributes an ARFF file declares (its header only; ``.xz`` read compressed): what a
    check before any job needs to know of a data set's columns without reading its rows."""
    import lzma

    path = Path(path)
    attrs: list[Attribute] = []
    try:
        with (lzma.open(path, "rt", encoding="utf-8") if path.suffix == ".xz" else open(path, encoding="utf-8")) as fh:
            for ln, raw in enumerate(fh, 1):
                line = raw.strip().lstrip("\ufeff")
                if line.lower().startswith("@attribute"):
                    attrs.append(_parse_attribute(line[len("@attribute"):], f"{path}:{ln}"))
                elif line.lower().startswith("@data"):
                    break
    except (lzma.LZMAError, EOFError) as exc:   # a shipped copy cut short or replaced
        raise ArffError(f"{path}: not a whole xz file ({exc}); restore it or ship the ARFF again") from None
    return attrs


def read_arff(path: str | Path) -> tuple[pd.DataFrame, str]:
    """Read an ARFF file. Returns ``(frame, relation_name)``."""
    path = Path(path)
    raw_bytes = path.read_bytes()
    try:
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw_bytes[:exc.start].count(b"\n") + 1
        raise ArffError(f"{path}:{line}: byte 0x{raw_bytes[exc.start]:02x} is not UTF-8 (an encoding problem, "
                        "e.g. a Latin-1 file: convert it with `iconv -f latin1 -t utf-8`)") from None
    lines = text.removeprefix("\ufeff").splitlines()   # a UTF-8 byte-order mark, as Weka reads it
    relation = None
    attrs: list[Attribute] = []
    data_start = None
    for ln, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        where = f"{path}:{ln}"
        low = line.lower()
        if low.startswith("@relation"):
            relation = _unquote(line[len("@relation"):].strip())
        elif low.startswith("@attribute"):
            attrs.append(_parse_attribute(line[len("@attribute"):], where))
        elif low.startswith("@data"):
            data_start = ln
            break
        else:
            raise ArffError(f"{where}: expected @relation, @attribute or @data, found {line[:60]!r}")
    if relation is None:
        raise ArffError(f"{path}: no @relation line")
    if not attrs:
        raise ArffError(f"{path}: no @attribute lines")
    if data_start is None:
        raise ArffError(f"{path}: no @data section")
    names = [a.name for a in attrs]
    if len(set(names)) != len(names):
        dup = sorted({x for x in names if names.count(x) > 1})
        raise ArffError(f"{path}: attribute names repeated: {dup}")

    m = len(attrs)
    rows: list[list] = []
    row_lines: list[int] = []
    for ln in range(data_start, len(lines)):
        line = lines[ln].strip()
        if not line or line.startswith("%"):
            continue
        where = f"{path}:{ln + 1}"
        if line.startswith("{"):
            raise ArffError(f"{where}: sparse ARFF rows are not supported")
        vals = _split_values(line, where)
        if len(vals) != m:
            raise ArffError(f"{where}: expected {m} values, found {len(vals)}")
        rows.append(vals)
        row_lines.append(ln + 1)
    # column by column: one pass per attribute over a transposed list, not a step per value
    columns = list(zip(*rows, strict=True)) if rows else [()] * m
    frame = {}
    for a, col in zip(attrs, columns, strict=True):
        if a.kind == "nominal":
            lookup = {v: i for i, v in enumerate(a.values)}
            lookup[MISSING] = -1
            codes = np.array([lookup.get(v, -2) for v in col], dtype=np.int32)
            if (codes == -2).any():
                i = int(np.argmax(codes == -2))
                raise ArffError(
                    f"{path}:{row_lines[i]}: value {col[i]!r} of nominal attribute {a.name!r} is not declared "
                    f"(declared: {a.values[:10]}{'…' if len(a.values) > 10 else ''})")
            frame[a.name] = pd.Categorical.from_codes(codes, categories=pd.Index(a.values, dtype=object))
        elif a.kind == "numeric":
            frame[a.name] = _numeric_column(col, a.name, path, row_lines)
        else:
            frame[a.name] = pd.Series(list(col), dtype=object)
    return pd.DataFrame(frame), relation


def _quote(v: str) -> str:
    if v == "" or any(c in v for c in " ,'\"{}%\t?\\"):
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return v


def write_arff(frame: pd.DataFrame, path: str | Path, relation: str = "nbrepro", comment: str | None = None) -> None:
    """Write a DataFrame as ARFF (Categorical → nominal with its categories, float → numeric, written
    with Python's shortest round-trip repr), with an optional ``%`` comment line first.

    Used to hand exactly our data to Weka in the oracle tests, and to write generated datasets.
    """
    lines = ([f"% {comment}"] if comment else []) + [f"@relation {_quote(relation)}", ""]
    cols = []
    for c in frame.columns:
        s = frame[c]
        if isinstance(s.dtype, pd.CategoricalDtype):
            cats = [str(v) for v in s.cat.categories]
            lines.append(f"@attribute {_quote(str(c))} {{{','.join(_quote(v) for v in cats)}}}")
            codes = s.cat.codes.to_numpy()
            q = [_quote(v) for v in cats]
            cols.append(["?" if k < 0 else q[k] for k in codes])
        else:
            lines.append(f"@attribute {_quote(str(c))} numeric")
            cols.append(["?" if np.isnan(v) else repr(float(v)) for v in s.to_numpy(dtype=np.float64)])
    lines += ["", "@data"]
    lines += [",".join(row) for row in zip(*cols, strict=True)]
    Path(path).write_text("\n".join(lines) + "\n")
