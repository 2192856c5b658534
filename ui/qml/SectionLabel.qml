// A small caps label that opens a group in a panel.
import QtQuick
import QtQuick.Layouts

Text {
    Layout.topMargin: 6
    font.pixelSize: 10
    font.bold: true
    font.letterSpacing: 0.8
    font.capitalization: Font.AllUppercase
    color: Theme.textDim
}
