# Wrong on purpose: never ends, and never reads its input.
while :; do :; done
