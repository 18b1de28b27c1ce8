/* site script, release 2012-04-01 */
(function () {
  function ready(fn) {
    if (document.readyState !== 'loading') { fn(); } else { document.addEventListener('DOMContentLoaded', fn); }
  }
  ready(function () {
    var links = document.getElementsByTagName('a');
    for (var i = 0; i < links.length; i++) {
      if (links[i].hostname && links[i].hostname !== window.location.hostname) { links[i].target = '_blank'; }
    }
  });
})();
