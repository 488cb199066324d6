// The one stylesheet of the HTML pages: one column from 320 px up, light and dark, no style attribute anywhere.
import { createHash } from 'node:crypto';

/** The one stylesheet, inline. Its hash goes into the CSP, so the two cannot drift apart. */
export const STYLESHEET = [
  // Light and dark follow the reader's setting (prefers-color-scheme); every colour pair keeps WCAG AA contrast.
  ':root{color-scheme:light dark;--muted:#595959;--line:#8886;--accent:#0b57d0;--badge-bg:#0b57d0;--badge-fg:#fff;--error:#b3261e;--unread:#eef4ff;--visited:#681da8;--bg:#fff;--fg:#1b1b1b}',
  '@media (prefers-color-scheme:dark){:root{--muted:#b0b0b0;--accent:#8ab4f8;--badge-bg:#8ab4f8;--badge-fg:#111;--error:#ffb4ab;--unread:#1d2633;--visited:#d7aefb;--bg:#121212;--fg:#e6e6e6}}',
  // Named, not left to the canvas: then every tool (and a reader's own style sheet) knows the pair it contrasts.
  'html{background:var(--bg);color:var(--fg)}',
  // Links in the scheme's own colours: the browser's dark-mode defaults fall short of 4.5:1 on a dark canvas.
  'a{color:var(--accent)}a:visited{color:var(--visited)}',
  '*,*::before,*::after{box-sizing:border-box}',
  'body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:0 .75rem 2rem;overflow-wrap:anywhere}',
  'header{border-bottom:1px solid var(--line)}',
  'nav{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.5rem 0}',
  'nav form{display:flex;gap:.25rem;align-items:center;margin:0}',
  'nav input[type=search]{width:9rem;max-width:100%}',
  '.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;position:absolute;background:Canvas;padding:.25rem}',
  'h1{font-size:1.5rem;margin:1rem 0 .5rem}',
  'h2{font-size:1.15rem;margin:1.5rem 0 .5rem}',
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}',
  'dt{font-weight:600}',
  'dd{margin:0;min-width:0}',
  // A field list inside a field (an export's avatars, messages, sessions) stacks each name over its value: nested
  // name columns would add up past a narrow window.
  'dd dl{grid-template-columns:minmax(0,1fr);gap:0}',
  // A wide table scrolls sideways instead of squeezing its columns to one character.
  '.table{overflow-x:auto}',
  'table{border-collapse:collapse;width:100%;font-size:.9rem}',
  'td{overflow-wrap:break-word}',
  'th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}',
  'td ul{list-style:none;margin:0;padding:0}',
  'caption{text-align:left;font-weight:600;padding:.25rem 0}',
  'time>span{white-space:nowrap}',
  'ul.related{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;padding:0}',
  'ol.messages,ul.chats,ul.people,ul.avatars,ul.results{list-style:none;padding:0;margin:0}',
  'ul.chats>li,ul.people>li,ul.avatars>li,ul.results>li{border-bottom:1px solid var(--line);padding:.5rem 0}',
  'ol.messages>li.unread{background:var(--unread)}',
  'ul.chats .title{font-weight:600;font-size:1.05rem}',
  // Mentions (docs/html.md): every one marked, the reader's own strongly, in colours that keep the text's contrast.
  'mark.mention{background:var(--unread);color:inherit;border-radius:.2rem;padding:0 .1rem}mark.mention.mine{background:#ffe08a;color:#1b1b1b}',
  '.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0 0}',
  '.byline{margin:0}.byline,.none,.quote,.edited{color:var(--muted)}',
  '.quote{margin:.25rem 0 0;padding-left:.5rem;border-left:3px solid var(--line);font-size:.9rem}',
  '.badge{background:var(--badge-bg);color:var(--badge-fg);border-radius:.75rem;padding:0 .5rem;font-size:.85rem;white-space:nowrap}',
  'a.user{display:inline-flex;align-items:center;gap:.35rem;vertical-align:middle}',
  // Presence (docs/html.md): a filled dot online, a half-filled one away, a ring offline: told apart without colour too.
  '.presence{display:inline-block;width:.6rem;height:.6rem;border-radius:50%;border:2px solid var(--muted)}',
  '.presence[data-presence=online]{background:#188038;border-color:#188038}',
  '.presence[data-presence=away]{background:linear-gradient(90deg,#b06000 50%,transparent 50%);border-color:#b06000}',
  '.typing{color:var(--muted);font-style:italic;min-height:1.5rem;margin:.25rem 0}',
  'svg.avatar,img{border-radius:4px;vertical-align:middle;max-width:100%;height:auto}',
  'ul.attachments{list-style:none;padding:0;margin:.25rem 0 0;display:flex;flex-direction:column;gap:.25rem}',
  'ul.attachments img{max-width:min(100%,32rem);height:auto}',
  '.size{color:var(--muted);font-size:.9rem}',
  'ul.reactions{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;padding:0;margin:.25rem 0 0}',
  'ul.reactions button{border-radius:1rem;padding:.1rem .6rem;border:1px solid var(--line);background:transparent;color:inherit;font:inherit}',
  'ul.reactions button[aria-pressed=true]{border-color:var(--accent);outline:1px solid var(--accent)}',
  '.actions{margin:.25rem 0 0;font-size:.9rem;display:flex;flex-wrap:wrap;gap:.75rem;align-items:center}',
  '.actions button{font-size:.85rem;min-height:1.75rem}',
  // The line's height is the Mark all as read button's (2rem) with or without it: nothing moves when the marker does.
  '.chat-nav{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center;min-height:2rem}',
  'form.inline{display:inline;margin:0}',
  '.error{color:var(--error)}',
  'form p.field{display:grid;grid-template-columns:minmax(0,1fr);gap:.25rem;max-width:36rem}',
  'input[type=file]{width:100%}',
  'p.check{display:flex;gap:.5rem;align-items:center}',
  'input,textarea,button{font:inherit;max-width:100%}',
  'textarea{width:100%;min-height:4rem}',
  'button{cursor:pointer;min-height:2rem}',
  ':focus-visible{outline:2px solid var(--accent);outline-offset:2px}',
  // The chat screen (docs/html.md): the conversation fills the viewport beside the sidebar; only the messages scroll,
  // inside a column-reverse box, which opens at its end (the newest message) without a script; the composer stays below.
  '.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}',
  'body:has(main>.conversation){max-width:none;height:100vh;height:100dvh;display:flex;flex-direction:column;padding:0}',
  'body:has(main>.conversation)>header{padding:0 .75rem}',
  'main:has(>.conversation){flex:1;min-height:0;display:grid;grid-template-columns:17rem minmax(0,1fr);grid-template-rows:auto auto minmax(0,1fr) auto;column-gap:1rem;padding:0 .75rem}',
  'main:has(>.conversation)>*{grid-column:2;min-width:0}',
  'main:has(>.conversation)>h1{grid-row:1;font-size:1.25rem;margin:.5rem 0 .25rem}',
  'main>.conversation{grid-row:3;display:flex;flex-direction:column;min-height:0}',
  'main>.conversation.empty{justify-content:flex-start}',
  'main>.sidebar{display:block;grid-column:1;grid-row:1/-1;overflow-y:auto;min-height:0;border-right:1px solid var(--line);padding:.25rem .5rem .5rem 0}',
  '.sidebar h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:.75rem 0 .25rem}',
  '.sidebar ul.chats>li{display:flex;flex-wrap:wrap;align-items:center;gap:0 .35rem;padding:.3rem .35rem;border:0;border-radius:4px}',
  '.sidebar ul.chats>li:has(>a[aria-current]){background:var(--unread)}',
  '.sidebar .title{flex:1 1 6rem;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:400;font-size:1rem}',
  '.sidebar .has-unread .title{font-weight:700}',
  '.sidebar .activity{flex-basis:100%;font-size:.8rem;color:var(--muted)}',
  '.chat-nav .back{display:none}',
  '.scroller{flex:1;min-height:0;overflow-y:auto;display:flex;flex-direction:column-reverse;overscroll-behavior:contain}',
  '.history{padding-bottom:.25rem}',
  'ol.messages>li.message{position:relative;padding:.1rem 2.25rem .1rem 2.75rem;border-radius:4px}',
  'ol.messages>li.message.first{margin-top:.5rem}',
  'ol.messages>li.message:target{outline:2px solid var(--accent)}',
  'li.message.first .byline svg.avatar{position:absolute;left:0;top:.2rem}',
  'li.message.more .byline:not(:has(.edited)){position:absolute;left:0;top:.1rem;font-size:.75rem}li.message.more .byline{font-size:.75rem}',
  'li.message.more .when:not(:focus){position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}',
  'li.message.more:hover .when{position:static;width:auto;height:auto;clip-path:none}',
  'li.message .byline time{font-size:.85rem}',
  'li.day,li.new-line{display:flex;align-items:center;gap:.5rem;font-size:.85rem;color:var(--muted);margin:.75rem 0 .25rem}',
  'li.day::before,li.day::after,li.new-line::before,li.new-line::after{content:"";flex:1;border-top:1px solid var(--line)}',
  'li.new-line{color:var(--error);font-weight:600}li.new-line::before,li.new-line::after{border-color:var(--error)}',
  'li.editing-now>.text{display:none}',
  '.editing{display:flex;flex-direction:column;gap:.25rem}.editing form{margin:0}',
  'details.menu>summary{position:absolute;top:0;right:0;list-style:none;cursor:pointer;padding:0 .5rem;border-radius:4px;color:var(--muted);font-weight:700;min-height:1.75rem;min-width:1.75rem;text-align:center}',
  'details.menu>summary::-webkit-details-marker{display:none}',
  'details.menu[open]>summary{background:var(--unread)}',
  '.menu-items{display:flex;flex-wrap:wrap;gap:.35rem .75rem;align-items:center;margin:.25rem 0;padding:.35rem .5rem;border:1px solid var(--line);border-radius:6px;font-size:.9rem}',
  '.menu-items form{display:inline-flex;flex-wrap:wrap;gap:.25rem;align-items:center;margin:0}',
  '.menu-items form p{margin:0}.menu-items input[name=emoji]{width:4rem}',
  '.palette button{background:transparent;border:1px solid var(--line);border-radius:1rem;min-height:1.75rem;color:inherit}',
  '.typing{font-size:.85rem;min-height:1.25rem;margin:0}',
  '.composer{border-top:1px solid var(--line);padding:.35rem 0 .5rem}',
  '.composer form{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:.25rem .5rem;align-items:end}',
  '.composer form>p{margin:0}',
  '.composer form>p.field:has(textarea){grid-column:1;grid-row:1;max-width:none}',
  '.composer form>p:last-child{grid-column:2;grid-row:1}',
  '.composer form>p.field:has(input[type=file]){grid-column:1/-1;display:flex;gap:.5rem;align-items:center;font-size:.85rem;max-width:none}',
  '.composer form>p.field:has(input[type=file]) label{flex:none}',
  '.composer form>p.field:has(textarea) label{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}',
  '.composer textarea{min-height:2.75rem;max-height:30vh;resize:vertical;display:block}',
  '.composer .error[role=alert]{grid-column:1/-1;margin:0}',
  '.replying{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:baseline;font-size:.9rem}.replying .quote{margin:0;flex:1}',
  // A phone (<= 640 px): the sidebar is its own screen (/chats); a chat has a link back to it instead.
  '@media (max-width:640px){main:has(>.conversation){grid-template-columns:minmax(0,1fr);padding:0 .5rem}main:has(>.conversation)>*{grid-column:1}'
    + 'main>.conversation:not(.empty)~.sidebar{display:none}.chat-nav .back{display:inline}.chat-nav .back::after{content:" ·"}'
    + 'body:has(main>.conversation.empty){height:auto;display:block}main:has(>.conversation.empty){display:flex;flex-direction:column}'
    + 'main>.conversation.empty~.sidebar{order:1;border:0;padding:0}main>.conversation.empty{order:2}main:has(>.conversation.empty)>details{order:3}main>.conversation.empty>.choose{display:none}'
    + 'ol.messages>li.message{padding-left:2.5rem;padding-right:2rem}}',
  // Type (docs/html.md, Text): the system's own faces, then the common colour emoji fonts, so an emoji never shows as
  // an empty box where a face has a glyph for it somewhere on the system; code in the system's monospace.
  ':root{--font-text:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Ubuntu,Cantarell,"Helvetica Neue",Arial,sans-serif,' +
    '"Apple Color Emoji","Segoe UI Emoji","Segoe UI Symbol","Noto Color Emoji","Twemoji Mozilla","EmojiOne Color","Android Emoji";' +
    '--font-mono:ui-monospace,SFMono-Regular,"Cascadia Mono","Segoe UI Mono","DejaVu Sans Mono","Liberation Mono",Menlo,Consolas,monospace,' +
    '"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji";--code-bg:#8882}',
  'body{font-family:var(--font-text)}',
  // Message text in the Markdown subset (docs/html.md, Message text): blocks spaced, code apart, quotes ruled.
  '.text>p,.text>ul,.text>ol,.text>pre,.text>blockquote{margin:.25rem 0}',
  '.text ul,.text ol{padding-left:1.5rem;white-space:normal}.text li{white-space:pre-wrap}',
  '.text blockquote{margin-left:0;padding-left:.75rem;border-left:3px solid var(--line);color:var(--muted)}.text blockquote p{margin:0}',
  'code,pre{font-family:var(--font-mono);font-size:.9em}',
  '.text code{background:var(--code-bg);border-radius:.2rem;padding:0 .2rem}',
  '.text pre{white-space:pre;overflow-x:auto;background:var(--code-bg);border-radius:.3rem;padding:.5rem}.text pre code{background:none;padding:0}',
  // The landing page (docs/html.md, The landing page): what this is, then the two doors side by side when they fit.
  '.lede{font-size:1.15rem;margin:.25rem 0 1rem}',
  '.doors{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,18rem),1fr));gap:1rem 2rem}',
  '.doors>section{border:1px solid var(--line);border-radius:.5rem;padding:0 1rem 1rem}',
  '.doors label{display:block;margin-bottom:.15rem}.doors input{width:100%}',
  '.button-link{display:inline-block;background:var(--badge-bg);color:var(--badge-fg);border-radius:.4rem;padding:.4rem 1rem;font-weight:600;text-decoration:none}',
  'a.button-link:visited{color:var(--badge-fg)}',
].join('\n');

export const STYLESHEET_HASH = createHash('sha256').update(STYLESHEET, 'utf8').digest('base64');
