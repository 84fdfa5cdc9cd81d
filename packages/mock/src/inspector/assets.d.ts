// The page's stylesheet is imported for its side effect: the build writes it to dist/inspector/app.css.
declare module '*.css'
