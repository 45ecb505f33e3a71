#!/bin/sh
# embed.sh - builds the playground page (web/index.html with web/style.css
# and web/app.js inlined) and writes it to OUT as a C array, with the
# Content-Security-Policy that allows exactly that inline style and script.
#
#   sh web/embed.sh OUT.c
#
# The CSP carries SHA-256 hashes of the inline blocks, so the page runs no
# other script and loads nothing from anywhere but its own origin.
set -eu
out=$1
dir=$(dirname "$0")
page=$out.html

# The page: the marker lines are replaced by the files, byte for byte, so
# the hashes below match what the browser hashes.
while IFS= read -r line; do
  case $line in
  '<!--@style-->') printf '<style>'; cat "$dir/style.css"; printf '</style>\n' ;;
  '<!--@script-->') printf '<script>'; cat "$dir/app.js"; printf '</script>\n' ;;
  *) printf '%s\n' "$line" ;;
  esac
done < "$dir/index.html" > "$page"

# base64 of a file's SHA-256 digest (coreutils and awk only).
sha256_b64() {
  sha256sum "$1" | cut -d' ' -f1 | awk '
    BEGIN { hex = "0123456789abcdef"
            b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" }
    {
      bits = ""
      for (i = 1; i <= length($1); i++) {
        v = index(hex, substr($1, i, 1)) - 1
        bits = bits int(v / 8) % 2 int(v / 4) % 2 int(v / 2) % 2 v % 2
      }
      nbytes = length($1) / 2
      while (length(bits) % 6) bits = bits "0"
      s = ""
      for (i = 1; i <= length(bits); i += 6) {
        v = 0
        for (j = 0; j < 6; j++) v = v * 2 + substr(bits, i + j, 1)
        s = s substr(b64, v + 1, 1)
      }
      for (p = (3 - nbytes % 3) % 3; p > 0; p--) s = s "="
      print s
    }'
}
css=$(sha256_b64 "$dir/style.css")
js=$(sha256_b64 "$dir/app.js")

{
  echo '/* Generated from web/ by web/embed.sh: the playground page at GET /. */'
  echo '#include <stddef.h>'
  echo 'const char gs_web_index_html[] = {'
  od -An -v -tx1 "$page" | sed -e 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'
  echo '0x00};'
  echo 'const size_t gs_web_index_len = sizeof gs_web_index_html - 1;'
  printf 'const char gs_web_csp[] = "default-src '"'none'"'; '
  printf "script-src 'sha256-%s'; style-src 'sha256-%s'; " "$js" "$css"
  printf "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
  printf "form-action 'none'; frame-ancestors 'none'\";\n"
} > "$out"
rm -f "$page"
