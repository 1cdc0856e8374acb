// SPDX-License-Identifier: GPL-2.0-or-later

/// `value` in decimal with zeros in front up to `width` characters; a longer one
/// (or a negative one) is left as it is. For dates and times written by hand.
public func zeroPadded(_ value: Int, width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
