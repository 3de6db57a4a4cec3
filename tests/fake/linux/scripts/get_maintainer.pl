#!/bin/sh
# Fake get_maintainer.pl: one maintainer and one list for any patch.
echo "Fake Maintainer <maintainer@example.org> (maintainer:FAKE)"
echo "linux-mm@example.org (open list:FAKE)"
