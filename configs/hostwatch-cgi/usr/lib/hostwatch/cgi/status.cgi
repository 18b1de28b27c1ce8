#!/bin/sh
# hostwatch status page (test sample).
echo "Content-Type: text/html"
echo
echo "<html><body><h1>hostwatch</h1><p>all hosts up</p></body></html>"
