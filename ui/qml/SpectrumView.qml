// The spectrum probe: the dB spectrum of a signal wire's newest samples against frequency, with the
// strongest frequency marked and read out.
import QtQuick
import Isochron.Ui

ProbeAxes {
    id: view
    kind: "spectrum"
    color: "#a855f7"
    valueUnit: "dB"

    Rectangle {  // the peak's marker
        visible: view.plot.hasData
        x: view.plot.x + view.plot.pixelOfX(view.plot.peakFrequency) - width / 2
        y: view.plot.y + view.plot.height - (view.plot.peakDecibels - view.plot.low) / (view.plot.high - view.plot.low) * view.plot.height - height - 2
        width: 7; height: 7; radius: 3.5
        color: Theme.selection
    }
    Text {
        objectName: "peakReadout"
        visible: view.plot.hasData && !view.cursorShown
        anchors.right: parent.right
        anchors.rightMargin: 8
        y: view.plot.y + 2
        text: qsTr("peak %1  %2").arg(view.xText(view.plot.peakFrequency)).arg(view.yText(view.plot.peakDecibels))
        font.pixelSize: 10
        font.family: Theme.monoFont
        color: Theme.text
    }
}
