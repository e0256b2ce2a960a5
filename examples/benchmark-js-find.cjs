// A benchmark.js suite as its README writes one, with a deferred benchmark and an options object.
const Benchmark = require('benchmark');

const suite = new Benchmark.Suite('find o');

suite
  .add('RegExp#test', function () {
    /o/.test('Hello World!');
  })
  .add('String#indexOf', function () {
    return 'Hello World!'.indexOf('o') > -1;
  })
  .add('deferred', {
    defer: true,
    minSamples: 10,
    fn(deferred) {
      queueMicrotask(() => deferred.resolve());
    },
  })
  .on('cycle', function (event) {
    console.log(String(event.target));
  })
  .on('complete', function () {
    console.log('Fastest is ' + this.filter('fastest').map('name'));
  })
  .run({ async: true });
