#!/usr/bin/env bash
# Build MAGPIE (github.com/jvc56/MAGPIE) beside our engine, for the side-by-side benchmarks
# (bench/magpie_side.py). Everything goes to bench/magpie/build/, which git ignores:
#   src/                MAGPIE's source, built with its release flags (-O3 -flto -march=native)
#   bin/magpie          MAGPIE's command line, run from build/ (it reads ./data)
#   magpie-movegen      our timing driver (bench/magpie/movegen.c) linked to MAGPIE's objects
#   magpie-simulate     our simulation timing driver (bench/magpie/simulate.c), linked the same way
#   data/               layouts and letter distributions from MAGPIE-DATA, and in data/lexica/
#                       our lexicon and leave table in MAGPIE's formats:
#                       CSW_SOWPODS.kwg (+ .wmp) from lexicons/sources/sowpods.txt,
#                       CSW_SOWPODS.klv2 from our shipped sowpods leave table,
#                       CSW_SOWPODS_ZERO.klv2 with every leave worth 0.
# MAGPIE picks the letter distribution from the start of a lexicon's name (CSW, NWL, TWL...
# mean English) and refuses names it does not know, hence CSW_SOWPODS: the words are SOWPODS.
#
# Sources, as a bare git directory or a normal checkout:
#   MAGPIE_REPO       MAGPIE's source       (git clone https://github.com/jvc56/MAGPIE)
#   MAGPIE_DATA_REPO  MAGPIE's data files   (git clone https://github.com/jvc56/MAGPIE-DATA)
# When one is missing this says so and exits 0 without building; the benchmarks then skip
# MAGPIE. Running it again rebuilds only what is missing, and the lexicon and leave table when
# ours are newer (rm -rf bench/magpie/build for a clean start, e.g. after updating MAGPIE). JOBS (default 1) is the number of compile jobs
# (MAGPIE's Makefile takes it as NPROCS and otherwise uses every core); everything runs under
# nice so that a benchmark running alongside is disturbed as little as possible.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="$HERE/build"
MAGPIE_REPO="${MAGPIE_REPO:-/work/.mirror/jvc56+MAGPIE/repo}"
MAGPIE_DATA_REPO="${MAGPIE_DATA_REPO:-/work/.mirror/jvc56+MAGPIE-DATA/repo}"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
JOBS="${JOBS:-1}"
CC="${CC:-cc}"
LEXICON=CSW_SOWPODS
WORDS="$ROOT/lexicons/sources/sowpods.txt"
OUR_LEAVES="$ROOT/pycore/gaddag_solver/leaves/sowpods.leaves"
LEXICA="$BUILD/data/lexica"
# MAGPIE's release flags (its Makefile: cflags.release, BOARD_DIM=15, RACK_SIZE=7).
CFLAGS_RELEASE=(-O3 -flto -march=native -DNDEBUG -Wall -Wno-trigraphs -DBOARD_DIM=15 -DRACK_SIZE=7)
OBJ_DIR="obj/release-b15-r7"

say() { printf '==> [%3d s] %s\n' "$SECONDS" "$*"; }

# source_kind DIR: "bare" (a bare git directory), "checkout" (a work tree) or "missing".
source_kind() {
    if [ -f "$1/HEAD" ] && [ -d "$1/objects" ] && git --git-dir="$1" rev-parse --verify -q HEAD > /dev/null; then
        echo bare
    elif [ -d "$1" ] && [ -n "$(ls -A "$1" 2>/dev/null)" ]; then
        echo checkout
    else
        echo missing
    fi
}

magpie_kind="$(source_kind "$MAGPIE_REPO")"
data_kind="$(source_kind "$MAGPIE_DATA_REPO")"
# (a source is only needed while what comes from it is not in build/ yet)
if [ ! -f "$BUILD/src/Makefile" ] &&
    { [ "$magpie_kind" = missing ] || { [ "$magpie_kind" = checkout ] && [ ! -f "$MAGPIE_REPO/Makefile" ]; }; }; then
    echo "MAGPIE source not found at $MAGPIE_REPO: git clone https://github.com/jvc56/MAGPIE and set MAGPIE_REPO to it; MAGPIE not built."
    exit 0
fi
if [ ! -f "$BUILD/data/letterdistributions/english.csv" ] && [ "$data_kind" = missing ]; then
    echo "MAGPIE data not found at $MAGPIE_DATA_REPO: git clone https://github.com/jvc56/MAGPIE-DATA and set MAGPIE_DATA_REPO to it; MAGPIE not built."
    exit 0
fi
if [ ! -f "$WORDS" ]; then
    echo "our word list $WORDS is missing: run bash scripts/setup_env.sh first" >&2
    exit 1
fi
mkdir -p "$BUILD"

# 1. MAGPIE's source, as committed (a checkout: its files as they are, without build output).
if [ ! -f "$BUILD/src/Makefile" ]; then
    say "copying MAGPIE's source from $MAGPIE_REPO"
    rm -rf "$BUILD/src" && mkdir -p "$BUILD/src"
    if [ "$magpie_kind" = bare ]; then
        git --git-dir="$MAGPIE_REPO" archive HEAD | tar -x -C "$BUILD/src"
        git --git-dir="$MAGPIE_REPO" rev-parse HEAD > "$BUILD/src/COMMIT"
    else
        tar -C "$MAGPIE_REPO" --exclude=./.git --exclude=./bin --exclude=./obj --exclude=./data \
            -cf - . | tar -x -C "$BUILD/src"
        if [ -e "$MAGPIE_REPO/.git" ]; then
            git -C "$MAGPIE_REPO" rev-parse HEAD > "$BUILD/src/COMMIT"
        else
            echo "(not a git checkout)" > "$BUILD/src/COMMIT"
        fi
    fi
fi

# 2. MAGPIE's release binary (its own Makefile and flags).
if [ ! -x "$BUILD/bin/magpie" ]; then
    say "building MAGPIE (make magpie BUILD=release -j$JOBS) at commit $(cat "$BUILD/src/COMMIT")"
    (cd "$BUILD/src" && nice -n 19 make magpie BUILD=release CC="$CC" NPROCS="$JOBS" > "$BUILD/make.log" 2>&1) || {
        echo "MAGPIE's build failed; see $BUILD/make.log" >&2
        exit 1
    }
    mkdir -p "$BUILD/bin"
    cp "$BUILD/src/bin/magpie" "$BUILD/bin/magpie"
fi

# 3. Our drivers, each compiled with the same flags and linked to MAGPIE's objects (not its main).
for driver in movegen simulate; do
    if [ ! -x "$BUILD/magpie-$driver" ] || [ "$HERE/$driver.c" -nt "$BUILD/magpie-$driver" ] || [ "$HERE/driver.h" -nt "$BUILD/magpie-$driver" ]; then
        say "compiling magpie-$driver"
        mapfile -t objects < <(find "$BUILD/src/$OBJ_DIR/src" -name '*.o' | sort)
        # (the link optimises MAGPIE's code again, -flto, and repeats its warnings: kept in a log)
        {
            nice -n 19 "$CC" "${CFLAGS_RELEASE[@]}" -I"$BUILD/src" -I"$HERE" -c "$HERE/$driver.c" -o "$BUILD/$driver.o" &&
                nice -n 19 "$CC" -pthread "${CFLAGS_RELEASE[@]}" "$BUILD/$driver.o" "${objects[@]}" -lm \
                    -o "$BUILD/magpie-$driver"
        } > "$BUILD/$driver.log" 2>&1 || {
            cat "$BUILD/$driver.log" >&2
            echo "compiling magpie-$driver failed; see $BUILD/$driver.log" >&2
            exit 1
        }
    fi
done

# 4. Layouts, letter distributions and win percentages from MAGPIE-DATA (only those: some of
#    its large files may be absent from a partial copy).
if [ ! -f "$BUILD/data/letterdistributions/english.csv" ]; then
    say "copying MAGPIE's data files from $MAGPIE_DATA_REPO"
    mkdir -p "$BUILD/data"
    if [ "$data_kind" = bare ]; then
        # (git may complain about absent blobs elsewhere in the tree; these paths are whole)
        git --git-dir="$MAGPIE_DATA_REPO" archive HEAD data/layouts data/letterdistributions data/strategy \
            2> /dev/null | tar -x -C "$BUILD"
    else
        cp -r "$MAGPIE_DATA_REPO/data/layouts" "$MAGPIE_DATA_REPO/data/letterdistributions" \
            "$MAGPIE_DATA_REPO/data/strategy" "$BUILD/data/"
    fi
    if [ ! -f "$BUILD/data/letterdistributions/english.csv" ] || [ ! -f "$BUILD/data/layouts/standard15.txt" ]; then
        echo "MAGPIE data at $MAGPIE_DATA_REPO lacks data/letterdistributions/english.csv or data/layouts/standard15.txt" >&2
        exit 1
    fi
fi
mkdir -p "$LEXICA"

# magpie ARGS...: MAGPIE's command line in build/ (it finds ./data), one command, then exit.
magpie() { (cd "$BUILD" && nice -n 19 bin/magpie "$@" -savesettings false); }

# 5. The lexicon: our word list (upper case, one word per line, as MAGPIE reads it) as a KWG
#    and a word map (.wmp, which MAGPIE's generator uses when present).
if [ ! -f "$LEXICA/$LEXICON.kwg" ] || [ "$WORDS" -nt "$LEXICA/$LEXICON.kwg" ]; then
    say "building $LEXICON.kwg from $WORDS"
    rm -f "$LEXICA/$LEXICON.kwg" "$LEXICA/$LEXICON.wmp"
    tr -d '\r' < "$WORDS" | tr '[:lower:]' '[:upper:]' | grep -v '^$' > "$LEXICA/$LEXICON.txt"
    magpie convert text2kwg "$LEXICON" english
fi
if [ ! -f "$LEXICA/$LEXICON.wmp" ]; then
    say "building $LEXICON.wmp"
    magpie convert text2wordmap "$LEXICON" english -threads 1
fi

# 6. The leave table: our shipped sowpods table written as LEAVE,VALUE lines (points, blank as
#    '?', which is what MAGPIE's csv2klv reads) and converted to KLV2; and an all-zero table.
if [ ! -f "$LEXICA/$LEXICON.klv2" ] || [ "$OUR_LEAVES" -nt "$LEXICA/$LEXICON.klv2" ]; then
    say "building $LEXICON.klv2 from our sowpods leave table"
    rm -f "$LEXICA/$LEXICON.klv2"
    PYTHONPATH="$ROOT/pycore" "$PYTHON" -c '
import sys
from gaddag_solver.formats.leaves import Leaves
Leaves.load(sys.argv[1]).to_csv(sys.argv[2])
' "$OUR_LEAVES" "$LEXICA/$LEXICON.csv"
    magpie convert csv2klv "$LEXICON" english
    rm -f "$LEXICA/$LEXICON.csv"
fi
if [ ! -f "$LEXICA/${LEXICON}_ZERO.klv2" ]; then
    say "building ${LEXICON}_ZERO.klv2 (every leave 0)"
    magpie createdata klv "${LEXICON}_ZERO" english
fi

for file in bin/magpie magpie-movegen magpie-simulate "data/lexica/$LEXICON.kwg" "data/lexica/$LEXICON.wmp" \
    "data/lexica/$LEXICON.klv2" "data/lexica/${LEXICON}_ZERO.klv2"; do
    if [ ! -f "$BUILD/$file" ]; then
        echo "missing after the build: $BUILD/$file" >&2
        exit 1
    fi
done
say "MAGPIE $(cat "$BUILD/src/COMMIT") built in $BUILD"
echo "    command line   $BUILD/bin/magpie (run it from $BUILD)"
echo "    movegen driver $BUILD/magpie-movegen $BUILD/data $LEXICON POSITIONS.cgp MIN_MS"
echo "    sim driver     $BUILD/magpie-simulate $BUILD/data $LEXICON POSITIONS.cgp ITERATIONS PLIES CANDIDATES THREADS"
echo "    lexicon        $LEXICA/$LEXICON.kwg, .wmp (from $WORDS)"
echo "    leaves         $LEXICA/$LEXICON.klv2 (from $OUR_LEAVES), ${LEXICON}_ZERO.klv2"
