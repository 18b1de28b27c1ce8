#!/bin/sh
# Pulls the release the CI system names and switches the site to it.
# The token below is a test value written for this folder.
DEPLOY_TOKEN="stagelock-test-token-0000"
echo "Content-Type: text/plain"
echo
echo "deploy hook ready"
