<?php
// Back office entry point.
echo "<html><body><p>back office</p></body></html>\n";
