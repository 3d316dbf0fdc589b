#include "report/pages/html_assets.hpp"

namespace ptxcts {

const char* const kPageStyle = R"CSS(
body{font:14px/1.4 system-ui,sans-serif;margin:0 2em 4em;color:#222;max-width:120em}
h1{font-size:1.5em;margin:.6em 0 .2em}h2{border-bottom:2px solid #ccc;margin-top:1.6em}
nav a{margin-right:1em}code,pre,.mono{font-family:ui-monospace,monospace;font-size:12px}
pre{background:#f6f6f6;padding:.4em;overflow-x:auto;margin:.2em 0}
table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#f0f0f0;position:sticky;top:0}
.pass,.confirmed,.passes{background:#d8f5d0}.fail,.crash,.timeout,.error,.runs,.needs-action{background:#ffc9c4}
.contradicted{background:#ffe3b8}.skip,.skipped,.not-supported,.not-checkable,.untested,.zero{background:#eee;color:#555}
.faulted,.no-fault,.undefined{background:#e2e6f0}.faulted-where-allowed{background:#ffe3b8}.known.fail,.known.error,.known.crash,.known.timeout{background:#fff4c2}
.verdict{font-size:1.15em;font-weight:600;padding:.5em .8em;border-radius:.3em;margin:.4em 0 .8em}
.verdict.conforms{background:#d8f5d0;border-left:6px solid #2a2}.verdict.needs-action{background:#ffc9c4;border-left:6px solid #c22}
.verdict.unchecked{background:#eee;border-left:6px solid #888}
details.group>summary{font-weight:600}abbr.targets{text-decoration:underline dotted;cursor:help}
.observed{background:#dde8ff}.undecided{background:#f1ecf8;color:#444}.accepted{background:#e4f3ff}.rejected{background:#f3e6f0;color:#555}
.known{background:#fff4c2}.partial{background:#fff0c8}.fault{font-style:italic}
.badge{display:inline-block;padding:0 .5em;border-radius:.6em;margin-right:.3em}
#run td:first-child{font-weight:600}.totals span{margin-right:1em}
.finding{border-left:4px solid #d33;padding:.1em .8em;margin:.6em 0;background:#fff8f7}
.finding.claim{border-color:#d90;background:#fffaf0}
.finding.known,.finding.info{border-color:#cb3;background:#fffdf0}
.finding h3{font-size:1em;margin:.2em 0}
#matrix td{text-align:center;font-size:12px;min-width:3em}#matrix td.form{text-align:left}
.filters{margin:.5em 0}.filters input{width:24em}
details{margin:.15em 0}summary{cursor:pointer}details>div{margin-left:1.2em}
figure{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top;max-width:100%;overflow-x:auto}
figcaption,figure .key{font-size:12px;max-width:60em;margin:.2em 0}
figcaption .reading{border-left:3px solid #cb3;padding-left:.6em;margin:.4em 0}
svg.lay{display:block;flex:none;text-anchor:middle}svg.lay text{font:12px ui-monospace,monospace;fill:#222;pointer-events:none}
svg.lay text.ax{font:600 13px system-ui,sans-serif}svg.lay .end{text-anchor:end}svg.lay .start{text-anchor:start}
svg.lay path,svg.lay rect{stroke:#fff;stroke-width:1}svg.lay rect.unk{fill:#fff;stroke:#bbb}svg.lay rect.repeat{stroke:#c00;stroke-width:2.5}
svg.lay rect.changed{fill:#f0d0ff;stroke:#90c;stroke-width:3}svg.lay.diff path{fill-opacity:.35}
svg.lay text.now{font-weight:700}svg.lay text.was{fill:#555;text-decoration:line-through}
.k0{fill:hsl(0,70%,82%)}.k1{fill:hsl(67,70%,82%)}.k2{fill:hsl(134,70%,82%)}.k3{fill:hsl(201,70%,82%)}.k4{fill:hsl(268,70%,82%)}.k5{fill:hsl(335,70%,82%)}.k6{fill:hsl(42,70%,90%)}.k7{fill:hsl(109,70%,90%)}.k8{fill:hsl(176,70%,90%)}.k9{fill:hsl(243,70%,90%)}.k10{fill:hsl(310,70%,90%)}.k11{fill:hsl(17,70%,90%)}
body.audit td,body.audit code,body.audit pre{overflow-wrap:anywhere}table.wrap{table-layout:fixed;width:100%}body.audit pre{white-space:pre-wrap}
body.audit #matrix td{min-width:0;padding:1px 3px}th.target{vertical-align:bottom;padding:2px 1px}
th.target span{writing-mode:vertical-rl;transform:rotate(180deg);font-size:12px;font-weight:600}
details.finding{padding:.2em .8em}details.finding p{margin:.25em 0}details.finding>summary{font-weight:600}details.finding.info{border-color:#8ad;background:#f6f9ff}
ol.run-verdicts{padding-left:1.5em}ol.run-verdicts li.verdict{font-size:1em;font-weight:400;padding:.2em .6em;margin:.2em 0}
#script-errors:empty{display:none}#script-errors{background:#fcc}
.diffcol{background:#fff2a8}
.scroll{overflow-x:auto;max-width:100%}.scroll.tall{overflow-y:auto;max-height:85vh}.scroll>table{margin:0}
h1,h2,h3,p,li,summary,figcaption,.verdict{overflow-wrap:break-word}.filters input{max-width:100%}
.filters{display:none}html.js .filters{display:block}
col.w6{width:6%}col.w7{width:7%}col.w8{width:8%}col.w10{width:10%}col.w12{width:12%}col.w14{width:14%}col.w16{width:16%}
col.w20{width:20%}col.w22{width:22%}col.w24{width:24%}col.w30{width:30%}col.w32{width:32%}col.w40{width:40%}col.w50{width:50%}
details.fleet-group>summary{font-weight:600}.same-all{color:#555}
table.history td{font-size:12px;white-space:nowrap}table.history td.form{white-space:normal;min-width:16em}.changed{outline:2px solid #90c;outline-offset:-2px}.changed.worse{outline-color:#c22}
table.history td details ul{white-space:normal;min-width:24em;max-width:48em;margin:.2em 0;padding-left:1.2em}li.worse{color:#a00}
@media (max-width:600px){body{margin:0 .6em 2em}nav a{display:inline-block}}
)CSS";

const char* const kPageScript = R"JS(
(function(){
  // Scripts run here: the filters (hidden where they cannot work, html_assets' style) are shown.
  document.documentElement.className+=' js';
  function record(what){
    var ol=document.getElementById('script-errors');
    if(!ol){ol=document.createElement('ol');ol.id='script-errors';(document.body||document.documentElement).appendChild(ol);}
    var li=document.createElement('li');li.textContent=what;ol.appendChild(li);
  }
  window.onerror=function(msg,src,line,col){record(msg+' at '+src+':'+line+':'+col);};
  window.addEventListener('unhandledrejection',function(e){record('unhandled rejection: '+e.reason);});
  // The items of a list (its table body's rows, or its <details> children; never the case rows inside
  // them) hide unless they match the family, the outcome and every word chosen. Inside a shown item,
  // case rows of another outcome hide while an outcome is chosen. The choice is kept in the address.
  function items(list){return list.querySelectorAll(list.tagName==='TABLE'?':scope>tbody>tr':':scope>details');}
  function choice(box){
    var o=box.querySelector('select.outcome');
    return {family:box.querySelector('select.family').value,outcome:o?o.value:'',
            q:box.querySelector('input').value};
  }
  function filter(box,keep){
    var list=document.getElementById(box.getAttribute('data-for')), c=choice(box);
    var words=c.q.toLowerCase().split(/\s+/).filter(Boolean), wanted=c.outcome.split(' ').filter(Boolean);
    var rows=items(list), shown=0;
    for(var i=0;i!==rows.length;++i){
      var r=rows[i], t=(r.getAttribute('data-name')||r.textContent).toLowerCase();
      var has=(r.getAttribute('data-outcomes')||r.getAttribute('data-outcome')||'').split(' ');
      var ok=(c.family===''||r.getAttribute('data-family')===c.family)&&words.every(function(w){return t.indexOf(w)!==-1;})&&
             (wanted.length===0||wanted.some(function(w){return has.indexOf(w)!==-1;}));
      r.style.display=ok?'':'none';shown+=ok?1:0;
      if(r.tagName==='DETAILS'){
        var cases=r.querySelectorAll('tr[data-outcome]');
        for(var k=0;k!==cases.length;++k)
          cases[k].style.display=wanted.length===0||wanted.indexOf(cases[k].getAttribute('data-outcome'))!==-1?'':'none';
      }
    }
    box.querySelector('.shown').textContent=shown+' of '+rows.length+' '+box.getAttribute('data-noun')+' shown';
    if(keep)remember(box,c);
  }
  // #filter:LIST;family=..;outcome=..;q=.. : a link to the page as filtered.
  function remember(box,c){
    var parts=['filter:'+box.getAttribute('data-for')];
    for(var k in c)if(c[k])parts.push(k+'='+encodeURIComponent(c[k]));
    if(history.replaceState)history.replaceState(null,'',parts.length>1?'#'+parts.join(';'):location.pathname+location.search);
  }
  function restore(boxes){
    var h=decodeURIComponent(location.hash.slice(1));
    if(h.indexOf('filter:')!==0)return false;
    var parts=location.hash.slice(1).split(';'), id=decodeURIComponent(parts[0]).slice(7);
    for(var i=0;i!==boxes.length;++i){
      var b=boxes[i];if(b.getAttribute('data-for')!==id)continue;
      for(var j=1;j<parts.length;++j){
        var kv=parts[j].split('='), v=decodeURIComponent(kv[1]||'');
        var el=kv[0]==='q'?b.querySelector('input'):b.querySelector('select.'+kv[0]);
        if(el)el.value=v;
      }
      b.scrollIntoView();
    }
    return true;
  }
  // A link to a kernel opens its collapsed section.
  function openTarget(){
    var id=decodeURIComponent(location.hash.slice(1));
    if(id.indexOf('filter:')===0)return;
    var t=id&&document.getElementById(id);
    for(var n=t;n;n=n.parentElement){if(n.tagName==='DETAILS')n.open=true;}
    if(t)t.scrollIntoView();
  }
  document.addEventListener('DOMContentLoaded',function(){
    var boxes=document.querySelectorAll('.filters');
    restore(boxes);
    for(var i=0;i!==boxes.length;++i){(function(b){
      var sels=b.querySelectorAll('select');
      for(var k=0;k!==sels.length;++k)sels[k].addEventListener('change',function(){filter(b,true);});
      b.querySelector('input').addEventListener('input',function(){filter(b,true);});
      filter(b,false);
    })(boxes[i]);}
    // A link to a filtered list (#filter:...) filters it, as on opening the page; any other opens its target.
    window.addEventListener('hashchange',function(){
      if(restore(boxes)){for(var k=0;k!==boxes.length;++k)filter(boxes[k],false);}else openTarget();
    });
    openTarget();
    if(!document.getElementById('script-errors')){var ol=document.createElement('ol');ol.id='script-errors';document.body.appendChild(ol);}
    document.body.setAttribute('data-ready','yes');
  });
  // When the browser first painted the page, for the measurement of how fast a page opens.
  // Read at the load event (a large page has painted by then), else once more after it.
  function paint(){
    var p=performance.getEntriesByName('first-contentful-paint')[0];
    if(p)document.body.setAttribute('data-first-paint-ms',String(Math.round(p.startTime)));
    return !!p;
  }
  window.addEventListener('load',function(){if(!paint())setTimeout(paint,100);});
})();
)JS";

}  // namespace ptxcts
