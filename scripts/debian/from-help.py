#!/usr/bin/env python3
"""The swell(1) man page and the bash completion, generated from the binary's own help texts
(`swell --help`, `swell VERB --help`, `swell scenes`), so neither can drift from the verbs.
    from-help.py man SWELL VERSION DATE        roff on standard output
    from-help.py completion SWELL              a bash completion script on standard output
A help text reads: "usage: swell VERB SYNOPSIS", a blank line, the summary, optional details
(paragraphs; indented lines are examples), then "options:" with one "  --name [VALUE]  help" a line."""
import re
import subprocess
import sys


def run(swell, *arguments):
    return subprocess.run([swell, *arguments], check=True, capture_output=True, text=True).stdout


class VerbHelp:
    def __init__(self, name, text):
        self.name = name
        lines = text.rstrip("\n").split("\n")
        prefix = f"usage: swell {name} "
        if not lines[0].startswith(prefix):
            sys.exit(f"from-help: 'swell {name} --help' does not begin with '{prefix}'")
        self.synopsis = lines[0][len(prefix):]
        body = lines[2:]
        if "options:" in body:
            at = body.index("options:")
            body, option_lines = body[:at], body[at + 1:]
        else:
            option_lines = []
        while body and not body[-1]:
            body.pop()
        self.summary = body[0]
        self.details = body[2:] if len(body) > 2 else []
        self.options = [parse_option(line) for line in option_lines if line.strip()]
        if not any(name == "help" for name, _, _ in self.options):
            self.options.append(("help", None, "show this help"))

    def values(self, option):
        """The choices the synopsis spells out for `option` (--rotate 0|90|180|270), or []."""
        match = re.search(rf"--{re.escape(option)} ([^\s\]]+)", self.synopsis)
        if match and "|" in match.group(1):
            return [v for v in match.group(1).split("|") if re.fullmatch(r"[a-z0-9]+", v)]
        return []

    def positional(self):
        """The synopsis' first positional argument (SCENE|FILE.json, LIST.json, [NAME]…), or ''."""
        for word in self.synopsis.split():
            if not word.startswith("-") and not word.startswith("[-"):
                return word.strip("[]")
            break
        return ""


def parse_option(line):
    """'  --name VALUE' padded to 26 columns, then the help. One space after the name means a VALUE
    follows (padding is wider) unless the left side was too long to pad: a placeholder begins with
    a capital (N, FILE, WxH[@HZ], A,B,C,D,E,F, SCRIPT.json), the help with a small letter."""
    match = re.match(r"  --([a-z0-9-]+)( +)(.*)$", line)
    if not match:
        sys.exit(f"from-help: cannot read the option line {line!r}")
    name, gap, rest = match.groups()
    value, _, text = rest.partition(" ")
    if len(gap) == 1 and value[:1].isupper():
        return name, value, text.strip()
    return name, None, rest.strip()


def verbs_of(swell):
    overview = run(swell, "--help")
    lines = overview.split("\n")
    at = lines.index("verbs:")
    names = [line.split()[0] for line in lines[at + 1:] if line.startswith("  ")]
    description = "\n".join(lines[:at]).split("\n\n")[1].strip()
    return description, [VerbHelp(name, run(swell, name, "--help")) for name in names]


def scene_names(swell):
    return [line.split(" ")[0] for line in run(swell, "scenes").split("\n") if " — " in line and not line[0].isspace()]


# MARK: man page

def roff(text):
    """Escapes text for groff: backslashes, hyphens that are dashes of options or minus signs, and a
    leading period or quote (which would be a request)."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"(?<![\w.])-", r"\\-", text)
    text = re.sub(r"(?<=\\-)-", r"\\-", text)
    if text[:1] in (".", "'"):
        text = "\\&" + text
    return text


def paragraphs(lines):
    """roff for a help text's details: filled paragraphs at blank lines (and before 'Exit status:'),
    indented lines kept as they are (examples)."""
    out = [".PP"]
    example = False
    for line in lines:
        if not line.strip():
            if example:
                out += [".fi", ".RE"]
                example = False
            if out[-1] != ".PP":
                out.append(".PP")
        elif line.startswith(" "):
            if not example:
                out += [".RS 4", ".nf"]
                example = True
            out.append(roff(line[2:] if line.startswith("  ") else line.lstrip()))
        else:
            if example:
                out += [".fi", ".RE"]
                example = False
            if line.startswith("Exit status:") and out[-1] != ".PP":
                out.append(".PP")
            out.append(roff(line))
    if example:
        out += [".fi", ".RE"]
    return out


def man(swell, version, date):
    description, verbs = verbs_of(swell)
    out = [
        f'.TH SWELL 1 "{date}" "swell {roff(version)}" "User Commands"',
        ".\\\" Generated by scripts/debian/from-help.py from swell's own --help texts; do not edit.",
        ".SH NAME", "swell \\- waves, ripples, elastic shapes and pictures for Linux kiosk screens",
        ".SH SYNOPSIS",
        ".B swell", ".I VERB", "[\\fIARGUMENTS\\fR] [\\fB\\-\\-help\\fR]", ".br",
        ".B swell \\-\\-version",
        ".SH DESCRIPTION", roff(description),
        "It draws with its own SIMD rasterizer and shows the result fullscreen through DRM/KMS or "
        "fbdev, with touch input from evdev.",
        "Each verb below prints its own help with \\fBswell\\fR \\fIVERB\\fR \\fB\\-\\-help\\fR; "
        "\\fBswell \\-\\-version\\fR prints the version and the CPU flavour running (the x86-64 package chooses the fastest of its builds for the CPU; SWELL_CPU=baseline, x86-64-v3 or x86-64-v4 forces one).",
        ".SH VERBS",
    ]
    for verb in verbs:
        out += [f'.SS "{verb.name}"', f".B swell {verb.name}", roff(verb.synopsis), ".PP", roff(verb.summary) + "."]
        out += paragraphs(verb.details) if verb.details else []
        for name, value, text in verb.options:
            out += [".TP", f"\\fB\\-\\-{roff(name)}\\fR" + (f" \\fI{roff(value)}\\fR" if value else ""), roff(text)]
    out += [
        ".SH FILES",
        ".TP", "\\fI/lib/systemd/system/swell\\-kiosk.service\\fR",
        "Runs \\fBswell run \\-\\-kiosk /etc/swell/kiosk.json\\fR on VT 1 as the user \\fBswell\\fR; not "
        "enabled on install: \\fBsystemctl enable \\-\\-now swell\\-kiosk.service\\fR.",
        ".TP", "\\fI/etc/swell/kiosk.json\\fR",
        "The kiosk file the unit runs: each output and what it shows, touch devices, clock and night hours "
        "(\\fBswell run \\-\\-kiosk /etc/swell/kiosk.json \\-\\-check\\fR checks it). As shipped, the one "
        "display shows \\fI/var/lib/swell/scene.json\\fR.",
        ".TP", "\\fI/lib/systemd/system/swell\\-screen\\-off.timer\\fR, \\fIswell\\-screen\\-on.timer\\fR",
        "Night hours: the display off at 22:00 and on at 07:00 (\\fBsystemctl edit\\fR to change).",
        ".TP", "\\fI/var/lib/swell/scene.json\\fR", "The scene the kiosk unit runs (the admin writes it).",
        ".TP", "\\fI/usr/share/swell/examples/\\fR", "A scene file for every built-in scene, and touch scripts.",
        ".TP", "\\fI/usr/share/doc/swell/kiosk.md\\fR",
        "Deploying on a kiosk, in full (in \\fI/usr/share/doc/swell\\-x86\\-64\\-v3/\\fR for that build).",
        ".SH \"SEE ALSO\"",
        "\\fBsystemctl\\fR(1), \\fBsystemd.service\\fR(5), \\fBsystemd.timer\\fR(5)",
    ]
    return "\n".join(out) + "\n"


# MARK: bash completion

def completion(swell):
    _, verbs = verbs_of(swell)
    scenes = " ".join(scene_names(swell))
    out = [
        "# bash completion for swell(1): verbs, their options and option values, built-in scene names",
        "# and files. Generated by scripts/debian/from-help.py from swell's own --help texts.",
        "_swell() {",
        '    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} verb=${COMP_WORDS[1]}',
        "    if ((COMP_CWORD == 1)); then",
        f'        COMPREPLY=($(compgen -W "{" ".join(v.name for v in verbs)} --help --version" -- "$cur"))',
        "        return",
        "    fi",
        '    case "$verb" in',
    ]
    for verb in verbs:
        out.append(f"    {verb.name})")
        valued = [(n, v) for n, v, _ in verb.options if v]
        if valued:
            out.append('        case "$prev" in')
            for name, value in valued:
                choices = verb.values(name)
                if choices:
                    out.append(f'        --{name}) COMPREPLY=($(compgen -W "{" ".join(choices)}" -- "$cur")); return ;;')
                elif re.search(r"FILE|PATH|\.json|SCRIPT|DIR", value):
                    out.append(f'        --{name}) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null; return ;;')
                else:
                    out.append(f"        --{name}) return ;;")
            out.append("        esac")
        options = " ".join("--" + n for n, _, _ in verb.options)
        out.append(f'        if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "{options}" -- "$cur")); return; fi')
        positional = verb.positional()
        words = scenes if re.search(r"SCENE|NAME", positional) else ""
        out.append(f'        COMPREPLY=($(compgen -W "{words}" -- "$cur") $(compgen -f -- "$cur"))')
        out.append("        compopt -o filenames 2>/dev/null")
        out.append("        ;;")
    out += ["    esac", "}", "complete -F _swell swell"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "man":
        sys.stdout.write(man(*sys.argv[2:]))
    elif len(sys.argv) == 3 and sys.argv[1] == "completion":
        sys.stdout.write(completion(sys.argv[2]))
    else:
        sys.exit(__doc__)
