// autocannon ships no types; the harness uses only its documented options and result fields.
declare module 'autocannon'
