#!/bin/sh
# A stand-in for $EDITOR in the search end-to-end test. The test queues what
# the "user" types in the file named by $SEARCH_E2E_NEXT; the next run saves
# it over the file it is given and empties the queue. A run with nothing
# queued leaves the file as it is, like a user who saves without changes.
if [ -s "$SEARCH_E2E_NEXT" ]; then
	cat "$SEARCH_E2E_NEXT" > "$1"
	: > "$SEARCH_E2E_NEXT"
fi
