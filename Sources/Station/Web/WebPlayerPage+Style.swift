extension WebPlayerPage {
    /// The page's CSS: one column on a phone (375 px), channels, player and lyrics side by
    /// side from 900 px; the system's light or dark scheme; a visible focus ring. Text keeps
    /// a contrast of 4.5:1 to what it is on (WCAG 2.1 §1.4.3) in both schemes: `--on-accent`
    /// and `--on-heart` are the text on the accent and the heart.
    static let style = #"""
    :root{color-scheme:light dark;--bg:#fafaf7;--fg:#1d1d1b;--dim:#6b6b66;--line:#deded8;--accent:#2f7d4f;--heart:#c8303f;--box:#fff;--on-accent:#fff;--on-heart:#fff}
    @media (prefers-color-scheme:dark){:root{--bg:#151614;--fg:#ecece6;--dim:#a2a29b;--line:#2e302c;--accent:#5fbf86;--heart:#ff6b7d;--box:#1e1f1c;--on-accent:#151614;--on-heart:#151614}}
    *{box-sizing:border-box}
    body{margin:0;font:16px/1.4 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
    header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
    h1{font-size:1.3rem;margin:0;color:var(--accent)}
    h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.08em;color:var(--dim);margin:0 0 .5rem}
    #status{flex:1;margin:0;min-width:10rem;color:var(--dim)}
    #status[data-kind=trouble]{color:var(--heart);font-weight:600}
    #account{display:flex;gap:.5rem;align-items:center}
    button{font:inherit;padding:.45rem .8rem;border:1px solid var(--line);border-radius:.5rem;background:var(--box);color:var(--fg);cursor:pointer}
    button:hover:not(:disabled){border-color:var(--accent)}
    button:disabled{opacity:.45;cursor:default}
    :focus-visible{outline:3px solid var(--accent);outline-offset:2px}
    main{display:grid;gap:1rem;padding:1rem;grid-template-columns:1fr}
    @media (min-width:900px){main{grid-template-columns:14rem 1fr 18rem}#visit-box{grid-column:2}#lyrics-box{grid-column:3;grid-row:1/span 2}}
    #channels,#live{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.4rem}
    @media (min-width:900px){#channels,#live{flex-direction:column}}
    nav button{width:100%;text-align:left}
    nav button[aria-current=true]{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}
    #live-title{margin-top:1rem}
    [data-live]::before{content:"● ";color:var(--heart)}
    [data-live][aria-current=true]::before{color:var(--on-accent)}
    #live-at{font-weight:650}
    #live-at[data-edge=true],#live-at[data-edge=away]{color:var(--heart)}
    [data-channel="-3"]::before{content:"♥ ";color:var(--heart)}
    [data-channel="-3"][aria-current=true]::before{color:var(--on-accent)}
    #now{display:flex;gap:1rem;align-items:center}
    #cover{width:min(40vw,240px);height:auto;aspect-ratio:1;border-radius:.5rem;background:var(--line);object-fit:cover}
    #meta{min-width:0}
    #meta p{margin:.15rem 0;overflow-wrap:anywhere}
    #title{font-size:1.35rem;font-weight:650}
    #artist{font-size:1.05rem}
    #album,#reason{color:var(--dim)}
    #reason{font-style:italic}
    #progress{display:flex;align-items:center;gap:.6rem;margin:1rem 0 .6rem;font-variant-numeric:tabular-nums;color:var(--dim)}
    #bar{flex:1;height:.4rem;background:var(--line);border-radius:.2rem;overflow:hidden}
    #bar div{height:100%;width:0;background:var(--accent)}
    #controls{display:flex;flex-wrap:wrap;gap:.5rem}
    #controls button{min-width:5.5rem}
    [data-action=like][aria-pressed=true]{background:var(--heart);border-color:var(--heart);color:var(--on-heart)}
    .keys{font-size:.8rem;color:var(--dim)}
    #lyrics{list-style:none;margin:0;padding:0;max-height:60vh;overflow-y:auto;color:var(--dim)}
    #lyrics li{padding:.1rem 0}
    #lyrics li.now{color:var(--fg);font-weight:650}
    #visit{margin:0;padding-left:1.6rem}
    #visit li{margin:.15rem 0}
    #visit .mark{color:var(--dim);font-size:.85rem;margin-left:.4rem}
    #login{margin:1rem;padding:1rem;border:1px solid var(--line);border-radius:.5rem;background:var(--box);max-width:26rem;display:grid;gap:.6rem}
    #login[hidden]{display:none}
    #login label{display:grid;gap:.2rem}
    #login input{font:inherit;padding:.4rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg)}
    #login-error{color:var(--heart);margin:0;min-height:1.2em}
    .row{display:flex;flex-wrap:wrap;gap:.5rem}
    #live-controls{margin-top:.5rem}
    #live-controls[hidden]{display:none}
    """#
}
