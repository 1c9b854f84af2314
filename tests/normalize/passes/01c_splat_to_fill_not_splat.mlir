// PASS: splat-to-fill
// ERROR: not supported yet: a constant tensor whose elements differ
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @k(%X: index) attributes {grid = [1]} {
    %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf16>
    func.return
  }
}
