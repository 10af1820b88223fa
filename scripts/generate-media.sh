#!/usr/bin/env bash
# Makes the video router's media fixtures in fixtures/media/:
#   sample.mp4              3 s, 320x180, 24 fps, H.264 (yuv420p, no audio): ffmpeg's moving testsrc2 pattern
#   sample-watermarked.mp4  the same video with a visible watermark (a dark box and "EMULATOR" text, bottom right)
#   cover.jpg               the first frame of sample.mp4, 320x180
# The outputs are committed; run this only to remake them. Needs ffmpeg with libx264 and drawtext
# (Debian: apt-get install -y ffmpeg fonts-dejavu-core). Single-threaded, bit-exact flags and no
# metadata, so that a given ffmpeg build remakes the same bytes.
# Usage: bash scripts/generate-media.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=fixtures/media
mkdir -p "$out"
font=${FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf}
[ -f "$font" ] || { echo "no font at $font (apt-get install -y fonts-dejavu-core, or set FONT)" >&2; exit 1; }

source='testsrc2=size=320x180:rate=24:duration=3'
x264=(-c:v libx264 -preset slow -crf 27 -profile:v main -pix_fmt yuv420p -g 48 -threads 1 -x264-params bframes=2)
clean=(-an -map_metadata -1 -fflags +bitexact -flags:v +bitexact -movflags +faststart)

ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$source" "${x264[@]}" "${clean[@]}" "$out/sample.mp4"

ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$source" \
  -vf "drawbox=x=iw-118:y=ih-30:w=110:h=22:color=black@0.6:t=fill,drawtext=fontfile=$font:text=EMULATOR:fontsize=14:fontcolor=white:x=w-113:y=h-26" \
  "${x264[@]}" "${clean[@]}" "$out/sample-watermarked.mp4"

ffmpeg -hide_banner -loglevel error -y -i "$out/sample.mp4" -frames:v 1 -q:v 4 -map_metadata -1 -fflags +bitexact -flags:v +bitexact "$out/cover.jpg"

ls -l "$out"
