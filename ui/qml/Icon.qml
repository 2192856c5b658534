// A line icon drawn from SVG path data on a 24-unit grid, in any colour and size.
import QtQuick
import QtQuick.Shapes

Item {
    id: icon
    property string name
    property color color: Theme.text
    property real size: 18
    implicitWidth: size
    implicitHeight: size

    readonly property var paths: ({
        "play": "M7 4.5 L19 12 L7 19.5 Z",
        "stop": "M6.5 6.5 H17.5 V17.5 H6.5 Z",
        "pause": "M8 5 V19 M16 5 V19",
        "undo": "M9 14 L4 9 L9 4 M4 9 H15 A5 5 0 0 1 15 19 H11",
        "redo": "M15 14 L20 9 L15 4 M20 9 H9 A5 5 0 0 0 9 19 H13",
        "fit": "M4 9 V4 H9 M15 4 H20 V9 M20 15 V20 H15 M9 20 H4 V15",
        "layout": "M3 5 H8 V9 H3 Z M16 3 H21 V7 H16 Z M16 15 H21 V19 H16 Z M8 7 H12 V17 H16 M12 5 H16",
        "plus": "M12 5 V19 M5 12 H19",
        "minus": "M5 12 H19",
        "search": "M10.5 4 A6.5 6.5 0 1 1 10.5 17 A6.5 6.5 0 1 1 10.5 4 M15.5 15.5 L20 20",
        "warning": "M12 3.5 L21.5 20 H2.5 Z M12 10 V14 M12 17 V17.2",
        "error": "M12 3 A9 9 0 1 1 12 21 A9 9 0 1 1 12 3 M12 7.5 V13 M12 16.2 V16.4",
        "check": "M5 12.5 L10 17.5 L19 7",
        "compare": "M4 19 L9 11 L13 15 L20 6 M4 15 L9 13 L13 17 L20 12",
        "chart": "M4 4 V20 H20 M7 15 L11 10 L14 13 L19 7",
        "file": "M6 3 H14 L19 8 V21 H6 Z M14 3 V8 H19",
        "folder": "M3 6 H9 L11 8 H21 V19 H3 Z",
        "save": "M5 4 H16 L20 8 V20 H5 Z M8 4 V9 H15 V4 M8 20 V14 H16 V20",
        "keyboard": "M3 7 H21 V17 H3 Z M6 10 H7 M9 10 H10 M12 10 H13 M15 10 H16 M18 10 H19 M7 14 H17",
        "grid": "M4 4 H20 V20 H4 Z M4 12 H20 M12 4 V20",
        "map": "M3 6 L9 4 L15 6 L21 4 V18 L15 20 L9 18 L3 20 Z M9 4 V18 M15 6 V20",
        "moon": "M20 14.5 A8 8 0 1 1 9.5 4 A6.5 6.5 0 0 0 20 14.5 Z",
        "trash": "M4 7 H20 M9 7 V4 H15 V7 M6 7 L7 20 H17 L18 7",
        "close": "M6 6 L18 18 M18 6 L6 18",
        "probe": "M4 12 H8 L10 7 L14 17 L16 12 H20",
        "export": "M12 4 V15 M7 9 L12 4 L17 9 M5 15 V20 H19 V15",
        "chevronDown": "M6 9 L12 15 L18 9",
        "chevronRight": "M9 6 L15 12 L9 18",
        "dock": "M4 4 H20 V20 H4 Z M4 14 H20",
        "undock": "M4 8 H16 V20 H4 Z M8 4 H20 V16",
        "home": "M4 11 L12 4 L20 11 M6 9.5 V20 H18 V9.5",
        "up": "M12 19 V5 M6 11 L12 5 L18 11",
        "clock": "M12 3 A9 9 0 1 1 12 21 A9 9 0 1 1 12 3 M12 7 V12 L15.5 14"
    })

    Shape {
        anchors.fill: parent
        layer.enabled: true
        layer.samples: 4
        layer.smooth: true
        ShapePath {
            strokeColor: icon.color
            strokeWidth: 1.8
            fillColor: icon.name === "play" || icon.name === "stop" ? icon.color : "transparent"
            capStyle: ShapePath.RoundCap
            joinStyle: ShapePath.RoundJoin
            scale: Qt.size(icon.width / 24, icon.height / 24)
            PathSvg { path: icon.paths[icon.name] || "" }
        }
    }
}
