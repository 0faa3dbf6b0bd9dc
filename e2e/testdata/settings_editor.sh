#!/bin/sh
# A stand-in for $EDITOR in the settings end-to-end test: it replaces the
# audit filter file it is given with a fixed filter, as a user would.
printf '%s\n' '{' '  "atype": "authCheck",' '  "param.command": {"$in": ["dropDatabase", "dropCollection"]}' '}' > "$1"
