#!/usr/bin/env python3
"""Reads the aarch64 disassembly of Swell's hot kernels and says whether they stayed NEON.

Swell's kernels are written with Swift's portable SIMD types (SIMD8<Float>, SIMD16<UInt16>…).
On x86-64 they become SSE/AVX/AVX-512; on aarch64 they must become NEON (ASIMD: v-registers with
arrangements like v0.4s) and not be split into scalar code. This script disassembles the named
kernels of an aarch64 swell (aarch64-linux-gnu-objdump), finds their innermost loops (a backward
branch and the code it jumps back over) and sorts each loop by what it does:
  vector        NEON instructions in the loop
  scalar-float  floating-point arithmetic on s/d registers and no NEON: a loop that became scalar
  integer       neither (pointer and counter bookkeeping, integer work)
It prints a table per kernel family and exits 1 if a kernel has a scalar-float loop that is not
listed in SCALAR_BY_DESIGN (with its reason), or no NEON at all, naming them; functions the
family patterns match that are not kernels are listed in NOT_KERNELS (with the reason). Usage:
  scripts/arm64/neon-report.py SWELL [--objdump aarch64-linux-gnu-objdump] [--demangle swift-demangle]
"""

import argparse
import re
import subprocess
import sys

# Kernel families and the demangled names of their functions (substrings). These are the hot
# paths of the bench lists: ripples (rings), waves (fills and strokes), text (glyphs), blends.
FAMILIES = {
    "ring": ["fillAnnulus(", "SteepRows.paint", "CircleLanes.coverage", "PixelNormalSteep.callAsFunction",
             "RowNormalSteep.four", "blendCovered("],
    "wave": ["fillWaveBand(", "fillChunkRowByRow(", "strokeSmoothBand(", "strokeRobustBand(", "drawStrokeGroup(",
             "SharedStrokeColumns.draw", "SharedStrokeColumns.fill", "strokeSampledDiscBand(", "WaveStrokeEnds.apply"],
    "glyph": ["compositeGlyph<", "compositeGlyph(", "compositeRowsAtEdge<", "compositeRows<"],
    "blend": ["blendFullRows(", "WaveBlender.fullColumns", "WaveBlender.fullSpan", "WaveBlender.coverageLanes",
              "WaveBlender.mix(", "compositeImage("],
}

# Loops that are scalar floating point by design, with the reason. Each is scalar on x86-64 too.
SCALAR_BY_DESIGN = {
    "strokeRobustBand(": "the stroke envelope's polyline in Double: k + 3 samples per 16-column group, each "
                         "needing its neighbour (chord normals), not per pixel",
}

# Functions the family patterns match that are not kernels (the start of their demangled name),
# with the reason; listed, not checked.
NOT_KERNELS = {
    "static SteepRows.paintIfSteepThroughCopy(": "copies a steep block's rows to a buffer and back around the painter's call, "
                                          "only where a clip's edge crosses a ring's side: no arithmetic to vectorise",
}

# Smaller functions are accessors, thunks and the generic entry points of specialised kernels.
SMALLEST_KERNEL = 40

SCALAR_FLOAT = {"fadd", "fsub", "fmul", "fdiv", "fmadd", "fmsub", "fnmadd", "fnmsub", "fnmul", "fmin", "fmax",
                "fminnm", "fmaxnm", "fsqrt", "fabs", "fneg", "frintm", "frintp", "frintz", "frintn", "frinta"}
VECTOR_OPERAND = re.compile(r"\bv\d+\.(?:\d+)?[bhsd]\b|\bq\d+\b")
SCALAR_OPERAND = re.compile(r"^[hsd]\d+\b")
BRANCH = re.compile(r"^(b(?:\.\w+)?|cbn?z|tbn?z)$")
LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
LABEL = re.compile(r"^([0-9a-f]+) <(.+)>:$")


def disassemble(objdump, binary):
    """Yields (symbol, [(address, mnemonic, operands)]) for every function in .text."""
    process = subprocess.Popen([objdump, "-d", "--no-show-raw-insn", binary], stdout=subprocess.PIPE, text=True)
    name, body = None, []
    for line in process.stdout:
        line = line.rstrip("\n")
        label = LABEL.match(line)
        if label:
            if name:
                yield name, body
            name, body = label.group(2), []
            continue
        instruction = LINE.match(line)
        if name and instruction:
            operands = instruction.group(3).split("//")[0].split(";")[0].strip()
            body.append((int(instruction.group(1), 16), instruction.group(2), operands))
    if name:
        yield name, body
    process.wait()


def demangled(demangler, names):
    text = subprocess.run([demangler, "--simplified"], input="\n".join(names), capture_output=True, text=True,
                          check=True).stdout
    return dict(zip(names, text.split("\n")))


def is_vector(mnemonic, operands):
    return bool(VECTOR_OPERAND.search(operands))


def is_scalar_float(mnemonic, operands):
    return mnemonic in SCALAR_FLOAT and bool(SCALAR_OPERAND.match(operands)) and not is_vector(mnemonic, operands)


def innermost_loops(body):
    """(start index, end index) of each loop that contains no other loop."""
    index = {address: i for i, (address, _, _) in enumerate(body)}
    loops = []
    for i, (address, mnemonic, operands) in enumerate(body):
        if not BRANCH.match(mnemonic):
            continue
        target = re.search(r"\b([0-9a-f]+)\s*<", operands) or re.search(r"#?0x([0-9a-f]+)$", operands)
        if not target:
            continue
        start = index.get(int(target.group(1), 16))
        if start is not None and start <= i:
            loops.append((start, i))
    return [loop for loop in loops
            if not any(other != loop and loop[0] <= other[0] and other[1] <= loop[1] for other in loops)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--objdump", default="aarch64-linux-gnu-objdump")
    parser.add_argument("--demangle", default="swift-demangle")
    arguments = parser.parse_args()

    functions = dict(disassemble(arguments.objdump, arguments.binary))
    names = demangled(arguments.demangle, [name for name in functions if name.startswith("$s")])
    problems = []
    allowed = set()
    print(f"{'family':6} {'kernel':60} {'instr':>6} {'NEON':>5} {'loops':>5} {'vector':>6} {'scalar-float':>12}")
    for family, patterns in FAMILIES.items():
        matched = sorted({name for name, readable in names.items() if any(p in readable for p in patterns)},
                         key=lambda name: names[name])
        if not matched:
            problems.append(f"{family}: no kernel found (renamed? update FAMILIES in {sys.argv[0]})")
        for name in matched:
            # The function itself, not closures in it (which may inline a kernel).
            reason = next((why for key, why in NOT_KERNELS.items()
                           if names[name].replace("specialized ", "").startswith(key)), None)
            if reason:
                allowed.add(f"{family}: {names[name][:60]}: not a kernel: {reason}")
                continue
            body = functions[name]
            vector = sum(is_vector(m, o) for _, m, o in body)
            if len(body) < SMALLEST_KERNEL:
                continue
            loops = innermost_loops(body)
            vector_loops = scalar_loops = 0
            for start, end in loops:
                part = body[start:end + 1]
                if any(is_vector(m, o) for _, m, o in part):
                    vector_loops += 1
                elif sum(is_scalar_float(m, o) for _, m, o in part) >= 2:
                    scalar_loops += 1
                    reason = next((why for key, why in SCALAR_BY_DESIGN.items() if key in names[name]), None)
                    if reason:
                        allowed.add(f"{family}: {names[name][:60]}: {reason}")
                    else:
                        problems.append(f"{family}: {names[name][:100]}: scalar float loop at {part[0][0]:#x}")
            if vector == 0:
                problems.append(f"{family}: {names[name][:100]}: no NEON instruction")
            readable = names[name].replace("specialized ", "")
            print(f"{family:6} {readable[:60]:60} {len(body):6} {vector:5} {len(loops):5} {vector_loops:6} {scalar_loops:12}")
    for line in sorted(allowed):
        print(("" if ": not a kernel: " in line else "scalar by design: ") + line)
    if problems:
        print("\n".join(["", "not vectorised:"] + ["  " + p for p in problems]))
        return 1
    print("\nevery kernel listed uses NEON, and none of their innermost loops is scalar floating point"
          + (" but those scalar by design" if allowed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
