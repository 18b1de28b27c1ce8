#!/bin/sh
# hostwatch database check (test sample): the password is a test value.
DB_PASSWORD=hostwatch-test-secret
echo "Content-Type: text/plain"
echo
echo "db ok"
