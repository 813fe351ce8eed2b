#!/usr/bin/env bash
# Publishes public/ to an S3 bucket behind CloudFront, moving only the files
# that changed.
#
#   BUCKET=my-bucket DISTRIBUTION=E123ABC BASE_URL=https://incidents.example.org/ deploy/s3-sync.sh
#
# The base URL is the address readers use: CloudFront's
# (https://d1234.cloudfront.net/) or your domain on it, never the bucket's.
# A build keeps each unchanged file as it was, with its modification time,
# so aws s3 sync (which compares size and time) uploads only what changed
# and --delete removes what the site no longer has. The build's own list of
# its files (.incidentlib-output) stays home.
#
# CloudFront's origin should be the bucket's website endpoint, with the
# index document index.html and the error document 404.html: the REST
# endpoint has no folder pages.
set -euo pipefail
: "${BUCKET:?set BUCKET}" "${BASE_URL:?set BASE_URL}"
cd "$(dirname "$0")/.."
make build BASE_URL="$BASE_URL"
aws s3 sync public/ "s3://$BUCKET/" --delete --exclude .incidentlib-output
if [ -n "${DISTRIBUTION:-}" ]; then
	# Pages under stable names are cached for five minutes (_headers has
	# no say on S3: set Cache-Control on the distribution's behaviours); an
	# invalidation shows a new build at once.
	aws cloudfront create-invalidation --distribution-id "$DISTRIBUTION" --paths '/*' >/dev/null
fi
