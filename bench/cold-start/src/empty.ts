// The floor: a program with no work, so the curve shows what the runtime costs before any bundle.
export default 'empty';
