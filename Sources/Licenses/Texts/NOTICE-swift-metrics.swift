// Copied from swift-metrics's NOTICE.txt (the version in Package.resolved), byte for byte.
// Do not edit: LicensesTests compares it with that file.

extension LicenceTexts {
    static let noticeSwiftMetrics = #"""

                            The SwiftMetrics Project
                            ========================

Please visit the SwiftMetrics web site for more information:

  * https://github.com/apple/swift-metrics

Copyright 2018, 2019 The SwiftMetrics Project

The SwiftMetrics Project licenses this file to you under the Apache License,
version 2.0 (the "License"); you may not use this file except in compliance
with the License. You may obtain a copy of the License at:

  https://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
License for the specific language governing permissions and limitations
under the License.

Also, please refer to each LICENSE.<component>.txt file, which is located in
the 'license' directory of the distribution file, for the license terms of the
components that this product depends on.

-------------------------------------------------------------------------------

This product contains a derivation of the lock implementation and various scripts from SwiftNIO.

  * LICENSE (Apache License 2.0):
    * https://www.apache.org/licenses/LICENSE-2.0
  * HOMEPAGE:
    * https://github.com/apple/swift-nio

"""#
}
