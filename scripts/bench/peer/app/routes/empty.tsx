/** `/`: nothing (the benchmark asks only captured pages). */
export default function Empty() {
  return null;
}
