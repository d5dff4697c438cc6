// Bottleneck's light build (no Redis clustering), the one @octokit/plugin-throttling imports,
// has the same API as the full build, whose types Bottleneck ships.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
