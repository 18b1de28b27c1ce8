<?php
// Front controller: every path that is not a file ends up here as ?q=path.
$route = isset($_GET['q']) ? trim($_GET['q'], '/') : '';
header('Content-Type: text/html; charset=utf-8');
echo '<html><body><p>route: ' . htmlspecialchars($route) . "</p></body></html>\n";
